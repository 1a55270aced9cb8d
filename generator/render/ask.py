"""The "Ask this rule" panels of a rule page: one form per group of predicates that share arguments.

Predicates of a rule that take an argument of the same name (the validator holds such arguments to
one type and meaning) are asked together: the reader enters the situation once and sees every
predicate's answer to it, each with the clause that decided it and its reasons (Daemonic: the
Instability test's extra Wounds and whether a double 1 restores the Wounds lost). A predicate that
shares nothing has a form of its own.

A form is HTML rendered at build time (one labelled field per argument, chosen by
`value_types.TYPES[type].field`) plus one JSON block that `docs/assets/ask.js` reads: the arguments'
types, labels and units, each predicate's declared answers, clause numbers and clarifications, and the
worked examples (an answer that matches one says so). The predicates run in the browser as JavaScript
compiled at build time from the same vetted snippets (`compiled_predicates`), traced: the reasons come
from the evaluation itself (generator/evaluate/trace.py), never from a guess.
"""

from __future__ import annotations

import json
from typing import Optional

from markupsafe import Markup

from ..evaluate.to_js import compile_predicate
from ..i18n.translate import Translations
from ..kb.answers import answer_key
from ..kb.model import Predicate, Rule
from ..kb.texts import declared_context, declared_parts
from ..kb.value_types import TYPES, field_of, is_point
from .values import answer_patterns, answer_phrases, choice_labels, kind_label

BOARD_SIZE = 12  # inches shown at least on a geometry board's side; models dragged past its edge stay on it
PLURAL_SAMPLES = (0, 1, 2, 5, 1.5, 21, 22, 25, 11, 100)  # numbers that hit every plural category we ship
OTHER_VALUE = "other"  # what the form sends for an open choice's «another faction»: an id the rule does not name
NEUTRAL = {"bool": False, "dice": [1, 1], "point": [0, 0], "points": [[0, 0]], "size": [20, 20], "text": "",
           "list": [], "bools": [], "ints": [], "models": [], "model": 0}  # a start when no example gives one


def ask_groups(rule: Rule) -> list[list[Predicate]]:
    """The rule's predicates grouped by shared argument names (connected through any chain), in page order."""
    groups: list[list[Predicate]] = []
    for predicate in rule.predicates:
        names = set(predicate.params)
        joined = [group for group in groups if names & {name for member in group for name in member.params}]
        merged = [member for group in joined for member in group] + [predicate]
        groups = [group for group in groups if group not in joined]
        groups.append(merged)
    order = {predicate.name: index for index, predicate in enumerate(rule.predicates)}
    for group in groups:
        group.sort(key=lambda predicate: order[predicate.name])
    return sorted(groups, key=lambda group: order[group[0].name])


def value_words(tr: Translations) -> dict:
    """The page language's words the panel's script writes values, answers and reasons with."""
    _ = tr.gettext
    return {
        "lang": tr.lang, "yes": _("yes"), "no": _("no"), "none": _("none"), "mm": _("%(num)s mm"),
        "dice": _("rolled %(dice)s"), "size": _("%(width)s × %(depth)s mm"),
        "needNumber": _("Enter a number."), "needWhole": _("Enter a whole number."),
        "needDistance": _("Enter a distance of 0 or more."),
        "tooLarge": _("Enter a smaller number: the rules answer for numbers of up to 15 digits."),
        "needModel": _("Enter a model's number, from 1."),
        "needValue": _("Enter a value written as in the examples, e.g. the list [1, 2]."),
        "problemNull": _("A value is needed here."),
        "problemType": _("This field takes: %(kind)s."),
        "problemUnknown": _("«%(value)s» is not one of the choices: %(values)s."),
        "problemRange": _("Enter a number from %(low)s to %(high)s."),
        "problemLong": _("At most %(limit)s items; this one has %(count)s."),
        "problemItem": _("Item %(num)s, «%(value)s», does not fit: the field takes %(kind)s."),
        "problemItemChoice": _("Item %(num)s, «%(value)s», is not one of the choices: %(values)s."),
        "problemItemRange": _("Item %(num)s, %(value)s, is not from %(low)s to %(high)s."),
        "problemDeep": _("The value is nested more than %(limit)s levels deep, so it cannot be read."),
        "linkRefused": _("The link's situation could not be read, so there is no answer:"),
        "noAnswer": _("The rule gives no answer for this situation: %(reason)s"),
        "decidedBy": _("Decided by"), "because": _("Why"), "clarified": _("Clarified"),
        # Said with the answer's icon (kb/answers.news_of), so the news is not told by colour alone.
        "news": {"good": _("Good news for the unit"), "bad": _("Bad news for the unit"),
                 "neutral": _("Neither good nor bad news for the unit")},
        "example": _("This is a worked example:"), "fromLink": _("The situation from the link:"),
        "copied": _("Copied"), "linkCopied": _("Link copied"), "copyFailed": _("Select the text and copy it:"),
        "exampleName": _("My question"),
        "model": _("Model %(num)s"), "at": _("at %(x)s; %(y)s"),
        "moved": _("%(name)s moved to %(x)s; %(y)s"),
        "compiledMissing": _("This answer needs the page's compiled predicates, which did not load."),
    }


class AskPanel:
    """The form of one group of predicates on one page."""

    def __init__(self, rule: Rule, predicates: list[Predicate], tr: Translations, phrase, plain, clause_number):
        self.rule, self.predicates, self.tr = rule, predicates, tr
        self.phrase, self.plain = phrase, plain  # (owner, *field) -> HTML without links / words (generator/kb/texts.py)
        self.clause_number = clause_number  # clause id -> its § number on the page
        self.ident = f"ask-{predicates[0].name}"
        self.arguments = {}  # name -> (the first predicate that takes it, the argument): one field each
        for predicate in predicates:
            for argument in predicate.args:
                self.arguments.setdefault(argument.name, (predicate, argument))

    def labels(self, predicate: Predicate, declared, argument_name: Optional[str]) -> dict[str, str]:
        at = declared_context(self.rule.key, predicate.name, argument_name)
        return choice_labels(declared, at, self.tr, self.rule.lang)

    def meaning(self, predicate: Predicate, argument) -> Markup:
        return self.phrase(self.rule, *declared_parts(predicate.name, argument.name))

    # ------------------------------------------------------------------ the form
    def help(self, predicate: Predicate, argument) -> str:
        """The field's one line of help in the page's language (how to fill it in), or ""."""
        if argument.help is None:
            return ""
        return self.plain(self.rule, *declared_parts(predicate.name, argument.name), "help")

    def field(self, predicate: Predicate, argument, start) -> Markup:
        field = field_of(argument)
        ident = f"{self.ident}-{argument.name}"
        label = self.meaning(predicate, argument)
        hint = kind_label(argument, self.tr, list(self.labels(predicate, argument, argument.name).values()))
        head = Markup('<div class="kb-ask__field kb-ask__field--{}" data-arg="{}" data-type="{}" data-field="{}"'
                      '{}>').format(field, argument.name, argument.type, field,
                                    Markup(' data-nullable="true"') if argument.nullable else "")
        body = getattr(self, f"_field_{field}")(predicate, argument, ident, label, hint, start)
        help_line = self.help(predicate, argument)
        helped = Markup('<p class="kb-ask__help" id="{}-help" data-pagefind-ignore>{}</p>').format(
            ident, help_line) if help_line else ""
        return head + body + helped + Markup(
            '<p class="kb-ask__problem" id="{}-problem" aria-live="polite"></p></div>').format(ident)

    def _radio(self, name, value, words_shown, checked) -> Markup:
        return Markup('<label class="kb-ask__option"><input type="radio" name="{}" value="{}"{}> {}</label>').format(
            name, value, Markup(" checked") if checked else "", words_shown)

    def _field_yesno(self, predicate, argument, ident, label, hint, start) -> Markup:
        _ = self.tr.gettext
        options = [("1", _("yes"), start is True), ("0", _("no"), start is False)]
        if argument.nullable:
            options.append(("", _("none"), start is None))
        radios = Markup("").join(self._radio(ident, v, w, c) for v, w, c in options)
        return Markup('<fieldset><legend>{}</legend>{}</fieldset>').format(label, radios)

    def _number_input(self, ident, label, shown, mode, unit) -> Markup:
        return Markup('<label for="{}">{}</label><span class="kb-ask__number"><input id="{}" type="text" '
                      'inputmode="{}" autocomplete="off" value="{}" aria-describedby="{}-problem">{}</span>').format(
            ident, label, ident, mode, shown, ident,
            Markup('<span class="kb-ask__unit">{}</span>').format(unit) if unit else "")

    def _field_decimal(self, predicate, argument, ident, label, hint, start) -> Markup:
        unit = TYPES[argument.type].unit
        unit = self.tr.gettext("mm") if unit == "mm" else unit
        return self._number_input(ident, label, "" if start is None else self.tr.number(start), "decimal", unit)

    def _field_whole(self, predicate, argument, ident, label, hint, start) -> Markup:
        _ = self.tr.gettext
        field = self._number_input(ident, label, "" if start is None else self.tr.number(start), "numeric", "")
        return field + Markup('<span class="kb-ask__stepper"><button type="button" class="kb-ask__step" data-step="-1" '
                              'aria-label="{}">−</button><button type="button" class="kb-ask__step" data-step="1" '
                              'aria-label="{}">+</button></span>').format(_("one less"), _("one more"))

    def _field_model(self, predicate, argument, ident, label, hint, start) -> Markup:
        # A reader counts models from 1; the predicate from 0 (ask.js converts).
        return self._number_input(ident, label, "" if start is None else self.tr.number(start + 1), "numeric", "")

    def _field_choice(self, predicate, argument, ident, label, hint, start) -> Markup:
        labels = self.labels(predicate, argument, argument.name)
        options = [Markup('<option value="{}"{}>{}</option>').format(
            value, Markup(" selected") if value == start else "", labels.get(str(value), str(value)))
            for value in argument.values]
        if argument.nullable:
            options.insert(0, Markup('<option value=""{}>{}</option>').format(
                Markup(" selected") if start is None else "", self.tr.gettext("none")))
        if argument.other is not None:  # an open set: every value it does not name is one option
            options.append(Markup('<option value="{}"{}>{}</option>').format(
                OTHER_VALUE, Markup(" selected") if start is not None and start not in argument.values else "",
                labels.other))
        return Markup('<label for="{}">{}</label><select id="{}">{}</select>').format(
            ident, label, ident, Markup("").join(options))

    def _chip(self, kind, name, value, words_shown, checked) -> Markup:
        return Markup('<label class="kb-ask__chip"><input type="{}" name="{}" value="{}"{}><span>{}</span></label>'
                      ).format(kind, name, value, Markup(" checked") if checked else "", words_shown)

    def _field_checks(self, predicate, argument, ident, label, hint, start) -> Markup:
        labels = self.labels(predicate, argument, argument.name)
        chosen = start if isinstance(start, list) else []
        chips = Markup("").join(self._chip("checkbox", ident, value, labels.get(str(value), str(value)),
                                           value in chosen) for value in argument.values)
        return Markup('<fieldset><legend>{}</legend><span class="kb-ask__chips">{}</span></fieldset>').format(
            label, chips)

    def _field_segments(self, predicate, argument, ident, label, hint, start) -> Markup:
        chips = Markup("").join(self._chip("radio", ident, value, self.tr.number(value), value == start)
                                for value in range(int(argument.min), int(argument.max) + 1))
        return Markup('<fieldset><legend>{}</legend><span class="kb-ask__chips">{}</span></fieldset>').format(
            label, chips)

    def _field_counts(self, predicate, argument, ident, label, hint, start) -> Markup:
        _ = self.tr.gettext
        items = start if isinstance(start, list) else []
        rows = Markup("").join(
            Markup('<span class="kb-ask__count" data-value="{v}"><span class="kb-ask__count-name">{shown}</span>'
                   '<button type="button" class="kb-ask__step" data-step="-1" aria-label="{fewer}">−</button>'
                   '<output aria-live="polite">{n}</output>'
                   '<button type="button" class="kb-ask__step" data-step="1" aria-label="{more}">+</button></span>'
                   ).format(v=value, shown=self.tr.number(value), n=self.tr.number(items.count(value)),
                            fewer=_("%(value)s: one fewer") % {"value": self.tr.number(value)},
                            more=_("%(value)s: one more") % {"value": self.tr.number(value)})
            for value in range(int(argument.max), int(argument.min) - 1, -1))
        return Markup('<fieldset><legend>{}</legend><span class="kb-ask__counts">{}</span></fieldset>').format(
            label, rows)

    def _field_boxes(self, predicate, argument, ident, label, hint, start) -> Markup:
        _ = self.tr.gettext
        items = start if isinstance(start, list) and start else [False]
        rows = Markup("").join(Markup('<li><label class="kb-ask__chip"><input type="checkbox"{}>'
                                      '<span class="kb-ask__point-name">{}</span></label></li>').format(
            Markup(" checked") if item else "", _("Model %(num)s") % {"num": index + 1})
            for index, item in enumerate(items))
        return Markup('<fieldset><legend>{}</legend><ol class="kb-ask__boxes">{}</ol>'
                      '<button type="button" class="kb-ask__add">{}</button> '
                      '<button type="button" class="kb-ask__remove">{}</button></fieldset>').format(
            label, rows, _("Add a model"), _("Remove the last model"))

    def _field_words(self, predicate, argument, ident, label, hint, start) -> Markup:
        items = start if isinstance(start, list) else []
        shown = ", ".join(self.tr.number(item) if isinstance(item, (int, float)) and not isinstance(item, bool)
                          else str(item) for item in items)
        return Markup('<label for="{}">{}</label><input id="{}" type="text" autocomplete="off" value="{}" '
                      'aria-describedby="{}-help {}-problem">').format(ident, label, ident, shown, ident, ident)

    def _field_dice(self, predicate, argument, ident, label, hint, start) -> Markup:
        _ = self.tr.gettext
        start = start if isinstance(start, list) and len(start) == 2 else [1, 1]
        dice = Markup("").join(
            Markup('<span class="kb-ask__die" role="radiogroup" aria-label="{}" data-die="{}">{}</span>').format(
                _("die %(num)s") % {"num": index + 1}, index,
                Markup("").join(self._chip("radio", f"{ident}-die-{index}", face, face, face == start[index])
                                for face in range(1, 7)))
            for index in range(2))
        return Markup('<fieldset><legend>{}</legend>{}</fieldset>').format(label, dice)

    def _field_size(self, predicate, argument, ident, label, hint, start) -> Markup:
        _ = self.tr.gettext
        start = start if isinstance(start, list) and len(start) == 2 else [20, 20]
        parts = [self._number_input(f"{ident}-{i}", words_, self.tr.number(start[i]), "decimal", _("mm"))
                 for i, words_ in enumerate((_("width"), _("depth")))]
        return Markup('<fieldset><legend>{}</legend>{}</fieldset>').format(label, Markup(" ").join(parts))

    def _field_point(self, predicate, argument, ident, label, hint, start) -> Markup:
        return self._points(ident, label, [start] if is_point(start) else [[0, 0]], False)

    def _field_points(self, predicate, argument, ident, label, hint, start) -> Markup:
        points = start if isinstance(start, list) and all(is_point(p) for p in start) else [[0, 0]]
        return self._points(ident, label, points, True)

    def _points(self, ident, label, points, many) -> Markup:
        _ = self.tr.gettext
        # The typed coordinates are the field (and the accessible way to set them); the board (ask.js)
        # draws the same points and writes back into these inputs when a model is dragged or moved by keys.
        rows = Markup("").join(self._point_row(index if many else None, point) for index, point in enumerate(points))
        buttons = Markup('<button type="button" class="kb-ask__add">{}</button> '
                         '<button type="button" class="kb-ask__remove">{}</button>').format(
            _("Add a model"), _("Remove the last model")) if many else ""
        return Markup('<fieldset><legend>{}</legend><p class="kb-ask__hint" data-pagefind-ignore>{}</p>'
                      '<ol class="kb-ask__points">{}</ol>{}</fieldset>').format(
            label, _("Coordinates in inches (x; y). Or drag the models on the board, or select one and move it "
                     "with the arrow keys."), rows, buttons)

    def _point_row(self, index, point) -> Markup:
        # A reader counts models from 1, as the answers do (the predicates count from 0).
        _ = self.tr.gettext
        name = _("Model %(num)s") % {"num": index + 1} if index is not None else _("point")
        # Translators: the names of the two coordinates of a point on the table, as in the hint "(x; y)".
        across, along = _("x"), _("y")
        return Markup('<li><span class="kb-ask__point-name">{}</span> '
                      '<label>{} <input type="text" inputmode="decimal" data-axis="0" data-axis-name="{}" value="{}" '
                      'aria-label="{}: {}"></label> <label>{} <input type="text" inputmode="decimal" data-axis="1" '
                      'data-axis-name="{}" value="{}" aria-label="{}: {}"></label></li>').format(
            name, across, across, self.tr.number(point[0]), name, across,
            along, along, self.tr.number(point[1]), name, along)

    def _field_text(self, predicate, argument, ident, label, hint, start) -> Markup:
        return Markup('<label for="{}">{}</label><input id="{}" type="text" autocomplete="off" value="{}">').format(
            ident, label, ident, "" if start is None else start)

    def _field_list(self, predicate, argument, ident, label, hint, start) -> Markup:
        return Markup('<label for="{}">{} <small>({})</small></label><input id="{}" type="text" autocomplete="off" '
                      'spellcheck="false" value="{}" aria-describedby="{}-problem">').format(
            ident, label, hint, ident, json.dumps(start, ensure_ascii=False), ident)

    # ------------------------------------------------------------------ the data for ask.js
    def argument_data(self, predicate: Predicate, argument) -> dict:
        labels = self.labels(predicate, argument, argument.name)
        return {"name": argument.name, "type": argument.type, "field": field_of(argument),
                "nullable": argument.nullable, "meaning": str(self.meaning(predicate, argument)),
                "label": self.plain(self.rule, *declared_parts(predicate.name, argument.name)),
                "labels": labels, "values": argument.values, "items": argument.items, "other": labels.other,
                "min": argument.min, "max": argument.max,
                "kind": kind_label(argument, self.tr, list(labels.values()))}

    def predicate_data(self, predicate: Predicate) -> dict:
        rule = self.rule
        returns_at = declared_context(rule.key, predicate.name)
        return {
            "name": predicate.name, "clause": predicate.clause, "params": predicate.params,
            # How each computing return worked its value out (evaluate/clauses.py): the reasons show it.
            "returned": predicate.snippet.notation.returned if predicate.snippet else {},
            "summary": self.plain(rule, "predicate", predicate.name),
            "returns": {"type": predicate.returns.type, "nullable": predicate.returns.nullable,
                        "news": {answer_key(key): meaning for key, meaning in (predicate.returns.news or {}).items()},
                        # HTML made by our markup renderer (escaped, code spans kept); ask.js sets it as HTML.
                        "meaning": str(self.phrase(rule, *declared_parts(predicate.name))),
                        "labels": self.labels(predicate, predicate.returns, None),
                        # The declared answers («Можно»; "{value} extra Wounds" per plural category).
                        "answers": answer_phrases(predicate.returns, self.tr, returns_at, rule.lang),
                        "pattern": answer_patterns(predicate.returns, self.tr, returns_at, rule.lang, PLURAL_SAMPLES)},
            "examples": [{"id": e.id, "clause": e.clause, "given": e.given, "expect": e.expect,
                          "name": self.plain(rule, "example", e.id)}
                         for e in rule.examples if e.predicate == predicate.name],
        }

    def data(self) -> dict:
        rule = self.rule
        clarified: dict[str, list] = {}
        for clarification in rule.clarifications:
            for clause in clarification.clauses:
                clarified.setdefault(clause, []).append({
                    "id": clarification.id, "status": clarification.status,
                    "question": str(self.phrase(rule, "clarification", clarification.id, "question"))})
        return {
            "rule": rule.key, "form": self.ident,
            "args": [self.argument_data(predicate, argument) for predicate, argument in self.arguments.values()],
            "predicates": [self.predicate_data(predicate) for predicate in self.predicates],
            "clauses": {clause.id: {"number": self.clause_number(clause.id), "clarifications": clarified.get(clause.id, [])}
                        for clause in rule.clauses},
        }

    def start(self) -> dict:
        """The situation the form opens with: each predicate's first worked example, yes/no flags at «no».

        Flags are mostly rare (Unbreakable, already withdrawn): an answer that opens on one switched on
        («no test») tells the reader nothing about the usual case.
        """
        start: dict = {}
        for predicate in self.predicates:
            first = next((e for e in self.rule.examples if e.predicate == predicate.name), None)
            for argument in predicate.args:
                if argument.name in start:
                    continue
                if argument.type == "bool":
                    start[argument.name] = False
                elif first is not None:
                    start[argument.name] = first.given.get(argument.name)
                else:
                    start[argument.name] = NEUTRAL.get(argument.type, (argument.values or [None])[0]
                                                       if argument.type == "choice" else 0)
        return start

    def markup(self) -> Markup:
        """The form: its fields, a recap for a shared link, an answer per predicate, the share and copy buttons."""
        _ = self.tr.gettext
        start = self.start()
        fields = Markup("").join(self.field(predicate, argument, start.get(argument.name))
                                 for predicate, argument in self.arguments.values())
        geometry = any(TYPES[argument.type].field in ("point", "points") for _p, argument in self.arguments.values())
        board = Markup('<div class="kb-ask__board" data-size="{}" role="group" aria-label="{}"></div>').format(
            BOARD_SIZE, _("Board: drag the models, or select one and use the arrow keys")) if geometry else ""
        several = len(self.predicates) > 1
        results = Markup("").join(
            Markup('<section class="kb-ask__result" data-predicate="{name}"{anchor}>{title}'
                   '<div class="kb-ask__output" role="status" aria-live="polite"></div></section>').format(
                name=predicate.name,
                anchor=Markup(' id="predicate-{}"').format(predicate.name) if several and index else "",
                title=Markup('<p class="kb-ask__question">{}</p>').format(
                    self.plain(self.rule, "predicate", predicate.name)) if several else "")
            for index, predicate in enumerate(self.predicates))
        return Markup(
            '<form class="kb-ask" id="{ident}" data-predicates="{names}" data-kb-ask="{data}" '
            'aria-labelledby="predicate-{first}" novalidate>'
            '<p class="kb-ask__recap" hidden></p>'
            '<div class="kb-ask__fields">{fields}</div>{board}'
            '<div class="kb-ask__answer" id="{ident}-answer">{results}</div>'
            '<p class="kb-ask__actions" data-pagefind-ignore><button type="button" class="kb-ask__share">{share}</button> '
            '<button type="button" class="kb-ask__yaml">{yaml}</button>'
            '<span class="kb-ask__status" role="status" aria-live="polite"></span></p></form>').format(
            ident=self.ident, first=self.predicates[0].name, names=" ".join(p.name for p in self.predicates),
            fields=fields, board=board, results=results, share=_("Share this question"),
            yaml=_("Copy as a worked example"), data=_json(self.data()))


def _json(data) -> str:
    # Carried in a data- attribute (escaped like any attribute value), not in a <script> block: data, never code.
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


def compiled_predicates(rule: Rule) -> Markup:
    """One inline script registering the rule's predicates, compiled to JavaScript, in window.KB_PREDICATES
    under "<rule key>:<predicate>" (generator/evaluate/to_js.py; they run on its runtime, kb-runtime.js).

    The code comes from the vetted snippets only (no translated text). "</" and "<!" are written as
    "<\\/" and "<\\!", which JavaScript reads the same inside string literals (the only place they can
    occur), so nothing in a snippet can end the <script> element; blank lines are dropped, so the
    block stays one raw HTML block for Markdown.
    """
    entries = []
    for predicate in rule.predicates:
        source = compile_predicate(rule, predicate)
        if source is not None:
            entries.append(f"P[{json.dumps(rule.key + ':' + predicate.name)}] = {source};")
    if not entries:
        return Markup("")
    code = "\n".join(["(function () { var P = window.KB_PREDICATES = window.KB_PREDICATES || {};", *entries, "})();"])
    code = "\n".join(line for line in code.splitlines() if line.strip()).replace("</", "<\\/").replace("<!", "<\\!")
    return Markup("<script>\n{}\n</script>").format(Markup(code))


def words_json(tr: Translations) -> Markup:
    """The page language's words for ask.js, read once per page."""
    return Markup('<div id="kb-ask-words" hidden data-kb-words="{}"></div>').format(_json(value_words(tr)))

