"""The "Ask this rule" panel of a predicate: its form, built from the declared value types, and its data.

The panel is HTML rendered at build time (one labelled field per argument, chosen by
`value_types.TYPES[type].field`) plus one JSON block that `docs/assets/ask.js` reads: the
arguments' types and choice labels, the worked examples (to name the clause that decides an
answer), the clarifications of each clause, and the page language's words for values. The
predicate itself runs in the browser as JavaScript compiled at build time from the same validated
snippet (`compiled_predicates`); nothing is sent to a server.

Decision: the clause that decides an answer is read off the worked examples, not declared: the
example of the same predicate with the same answer whose situation differs least from the
reader's names it — fewest differing yes/no, choice and text arguments first (they select the
case a clause covers: open ground or forest), then fewest differing other arguments, then the
smallest numeric difference; with no such example, the predicate's own `clause`. Every example already names its clause, and
`generator check` proves every example's answer, so this mapping is tested data, not guesswork.
"""

from __future__ import annotations

import json
from typing import Optional

from markupsafe import Markup

from ..core.plurals import plural_category
from ..evaluate.to_js import compile_predicate
from ..i18n.translate import Translations
from ..kb.model import Predicate, Rule
from ..kb.texts import declared_context, declared_parts
from ..kb.value_types import TYPES, is_point
from .values import answer_patterns, answer_phrases, choice_labels, kind_label

BOARD_SIZE = 12  # inches shown at least on a geometry board's side; models dragged past its edge stay on it
PLURAL_SAMPLES = (0, 1, 2, 5, 1.5, 21, 22, 25, 11, 100)  # numbers that hit every plural category we ship


def plural_forms(tr: Translations, singular: str, plural: str) -> dict[str, str]:
    """A counted message's form per CLDR plural category of the page language, for Intl.PluralRules."""
    return {plural_category(tr.lang, number): tr.ngettext(singular, plural, number) for number in PLURAL_SAMPLES}


def value_words(tr: Translations) -> dict:
    """The page language's words the panel's script writes values with."""
    _ = tr.gettext
    return {
        "lang": tr.lang, "yes": _("yes"), "no": _("no"), "none": _("none"),
        "inches": plural_forms(tr, "%(num)s inch", "%(num)s inches"), "mm": _("%(num)s mm"),
        "dice": _("rolled %(dice)s"), "size": _("%(width)s × %(depth)s mm"),
        "needNumber": _("Enter a number."), "needWhole": _("Enter a whole number."),
        "needValue": _("Enter a value written as JSON, e.g. [1, 2]."),
        "noAnswer": _("The rule gives no answer for this situation: %(reason)s"),
        "decidedBy": _("Decided by"), "clarified": _("Clarified"), "example": _("This is a worked example:"),
        "copied": _("Copied"), "exampleName": _("My question"),
        "model": _("Model %(num)s"), "at": _("at %(x)s; %(y)s"),
        "moved": _("%(name)s moved to %(x)s; %(y)s"),
        "compiledMissing": _("This answer needs the page's compiled predicates, which did not load."),
    }


class AskPanel:
    """The panel of one predicate on one page."""

    def __init__(self, rule: Rule, predicate: Predicate, tr: Translations, text, plain, clause_number):
        self.rule, self.predicate, self.tr = rule, predicate, tr
        self.phrase, self.plain = text, plain  # (owner, *field) -> HTML without links / words (generator/texts.py)
        self.clause_number = clause_number  # clause id -> its § number on the page
        self.ident = f"ask-{predicate.name}"

    def labels(self, declared, argument_name: Optional[str]) -> dict[str, str]:
        at = declared_context(self.rule.key, self.predicate.name, argument_name)
        return choice_labels(declared, at, self.tr, self.rule.lang)

    def meaning(self, argument) -> Markup:
        return self.phrase(self.rule, *declared_parts(self.predicate.name, argument.name))

    # ------------------------------------------------------------------ the form
    def field(self, argument, start) -> Markup:
        kind = TYPES[argument.type]
        ident = f"{self.ident}-{argument.name}"
        label = self.meaning(argument)
        hint = kind_label(argument, self.tr, list(self.labels(argument, argument.name).values()))
        head = Markup('<div class="kb-ask__field kb-ask__field--{}" data-arg="{}" data-type="{}" data-field="{}"'
                      '{}>').format(kind.field, argument.name, argument.type, kind.field,
                                    Markup(' data-nullable="true"') if argument.nullable else "")
        body = getattr(self, f"_field_{kind.field}")(argument, ident, label, hint, start)
        return head + body + Markup('<p class="kb-ask__problem" id="{}-problem" aria-live="polite"></p></div>').format(
            ident)

    def _radio(self, ident, name, value, words_shown, checked) -> Markup:
        return Markup('<label><input type="radio" name="{}" value="{}"{}> {}</label>').format(
            name, value, Markup(" checked") if checked else "", words_shown)

    def _field_yesno(self, argument, ident, label, hint, start) -> Markup:
        _ = self.tr.gettext
        options = [("1", _("yes"), start is True), ("0", _("no"), start is False)]
        if argument.nullable:
            options.append(("", _("none"), start is None))
        radios = Markup("").join(self._radio(ident, ident, v, w, c) for v, w, c in options)
        return Markup('<fieldset><legend>{}</legend>{}</fieldset>').format(label, radios)

    def _number_input(self, ident, label, start, mode, unit) -> Markup:
        shown = "" if start is None else self.tr.number(start)
        return Markup('<label for="{}">{}</label><span class="kb-ask__number"><input id="{}" type="text" '
                      'inputmode="{}" autocomplete="off" value="{}" aria-describedby="{}-problem">{}</span>').format(
            ident, label, ident, mode, shown, ident,
            Markup('<span class="kb-ask__unit" aria-hidden="true">{}</span>').format(unit) if unit else "")

    def _field_decimal(self, argument, ident, label, hint, start) -> Markup:
        return self._number_input(ident, label, start, "decimal", TYPES[argument.type].unit)

    def _field_whole(self, argument, ident, label, hint, start) -> Markup:
        return self._number_input(ident, label, start, "numeric", "")

    def _field_choice(self, argument, ident, label, hint, start) -> Markup:
        labels = self.labels(argument, argument.name)
        options = [Markup('<option value="{}"{}>{}</option>').format(
            value, Markup(" selected") if value == start else "", labels.get(str(value), str(value)))
            for value in argument.values]
        if argument.nullable:
            options.insert(0, Markup('<option value=""{}>{}</option>').format(
                Markup(" selected") if start is None else "", self.tr.gettext("none")))
        return Markup('<label for="{}">{}</label><select id="{}">{}</select>').format(
            ident, label, ident, Markup("").join(options))

    def _field_dice(self, argument, ident, label, hint, start) -> Markup:
        _ = self.tr.gettext
        start = start if isinstance(start, list) and len(start) == 2 else [1, 1]
        dice = []
        for index in range(2):
            options = Markup("").join(Markup('<option{}>{}</option>').format(
                Markup(" selected") if face == start[index] else "", face) for face in range(1, 7))
            dice.append(Markup('<label>{} <select data-die="{}">{}</select></label>').format(
                _("die %(num)s") % {"num": index + 1}, index, options))
        return Markup('<fieldset><legend>{}</legend>{}</fieldset>').format(label, Markup(" ").join(dice))

    def _field_size(self, argument, ident, label, hint, start) -> Markup:
        _ = self.tr.gettext
        start = start if isinstance(start, list) and len(start) == 2 else [20, 20]
        parts = [self._number_input(f"{ident}-{i}", words_, start[i], "decimal", "mm")
                 for i, words_ in enumerate((_("width"), _("depth")))]
        return Markup('<fieldset><legend>{}</legend>{}</fieldset>').format(label, Markup(" ").join(parts))

    def _field_point(self, argument, ident, label, hint, start) -> Markup:
        return self._points(argument, ident, label, [start] if is_point(start) else [[0, 0]], False)

    def _field_points(self, argument, ident, label, hint, start) -> Markup:
        points = start if isinstance(start, list) and all(is_point(p) for p in start) else [[0, 0]]
        return self._points(argument, ident, label, points, True)

    def _points(self, argument, ident, label, points, many) -> Markup:
        _ = self.tr.gettext
        # The typed coordinates are the field (and the accessible way to set them); the board (ask.js)
        # draws the same points and writes back into these inputs when a model is dragged or moved by keys.
        rows = Markup("").join(self._point_row(index if many else None, point) for index, point in enumerate(points))
        buttons = Markup('<button type="button" class="kb-ask__add">{}</button> '
                         '<button type="button" class="kb-ask__remove">{}</button>').format(
            _("Add a model"), _("Remove the last model")) if many else ""
        return Markup('<fieldset><legend>{}</legend><p class="kb-ask__hint" data-pagefind-ignore>{}</p><ol class="kb-ask__points" start="0">{}</ol>'
                      '{}</fieldset>').format(label, _("Coordinates in inches (x; y). Or drag the models on the "
                                                       "board, or focus one and move it with the arrow keys."),
                                              rows, buttons)

    def _point_row(self, index, point) -> Markup:
        # Models are numbered from 0, as the predicates' answers (lists of model numbers) count them.
        _ = self.tr.gettext
        name = _("Model %(num)s") % {"num": index} if index is not None else _("point")
        return Markup('<li><span class="kb-ask__point-name">{}</span> '
                      '<label>x <input type="text" inputmode="decimal" data-axis="0" value="{}" '
                      'aria-label="{}: x"></label> <label>y <input type="text" inputmode="decimal" data-axis="1" '
                      'value="{}" aria-label="{}: y"></label></li>').format(
            name, self.tr.number(point[0]), name, self.tr.number(point[1]), name)

    def _field_text(self, argument, ident, label, hint, start) -> Markup:
        return Markup('<label for="{}">{}</label><input id="{}" type="text" autocomplete="off" value="{}">').format(
            ident, label, ident, "" if start is None else start)

    def _field_list(self, argument, ident, label, hint, start) -> Markup:
        return Markup('<label for="{}">{} <small>({})</small></label><input id="{}" type="text" autocomplete="off" '
                      'spellcheck="false" value="{}" aria-describedby="{}-problem">').format(
            ident, label, hint, ident, json.dumps(start, ensure_ascii=False), ident)

    # ------------------------------------------------------------------ the data for ask.js
    def data(self) -> dict:
        rule, predicate = self.rule, self.predicate
        examples = [example for example in rule.examples if example.predicate == predicate.name]
        clarified: dict[str, list] = {}
        for clarification in rule.clarifications:
            for clause in clarification.clauses:
                clarified.setdefault(clause, []).append({
                    "id": clarification.id, "status": clarification.status,
                    "question": str(self.phrase(rule, "clarification", clarification.id, "question"))})
        returns_at = declared_context(rule.key, predicate.name)
        clauses = {clause.id: {"number": self.clause_number(clause.id), "clarifications": clarified.get(clause.id, [])}
                   for clause in rule.clauses}
        return {
            "rule": rule.key, "predicate": predicate.name, "clause": predicate.clause,
            "summary": self.plain(rule, "predicate", predicate.name),
            "args": [{"name": a.name, "type": a.type, "field": TYPES[a.type].field, "nullable": a.nullable,
                      "meaning": str(self.meaning(a)), "labels": self.labels(a, a.name)} for a in predicate.args],
            "returns": {"type": predicate.returns.type, "nullable": predicate.returns.nullable,
                        # HTML made by our markup renderer (escaped, code spans kept); ask.js sets it as HTML.
                        "meaning": str(self.phrase(rule, *declared_parts(predicate.name))),
                        "labels": self.labels(predicate.returns, None),
                        # The declared answers («Можно»; "{value} extra Wounds" per plural category).
                        "answers": answer_phrases(predicate.returns, self.tr, returns_at, rule.lang),
                        "pattern": answer_patterns(predicate.returns, self.tr, returns_at, rule.lang,
                                                   PLURAL_SAMPLES)},
            "examples": [{"id": e.id, "clause": e.clause, "given": e.given, "expect": e.expect,
                          "name": self.plain(rule, "example", e.id)} for e in examples],
            "clauses": clauses,
        }

    def start(self) -> dict:
        """The situation the form opens with: the predicate's first worked example, else neutral values."""
        first = next((e for e in self.rule.examples if e.predicate == self.predicate.name), None)
        if first is not None:
            return dict(first.given)
        neutral = {"bool": False, "choice": None, "dice": [1, 1], "point": [0, 0], "points": [[0, 0]],
                   "size": [20, 20], "text": "", "list": [], "bools": [], "ints": []}
        return {a.name: neutral.get(a.type, (a.values or [None])[0] if a.type == "choice" else 0)
                for a in self.predicate.args}

    def markup(self) -> Markup:
        """The panel: the form, a live answer region, the copy buttons and the panel's JSON data."""
        _ = self.tr.gettext
        start = self.start()
        fields = Markup("").join(self.field(argument, start.get(argument.name)) for argument in self.predicate.args)
        geometry = any(TYPES[a.type].field in ("point", "points") for a in self.predicate.args)
        board = Markup('<div class="kb-ask__board" data-size="{}" role="group" aria-label="{}"></div>').format(
            BOARD_SIZE, _("Board: drag the models, or focus one and use the arrow keys")) if geometry else ""
        return Markup(
            '<form class="kb-ask" id="{ident}" data-predicate="{name}" data-kb-ask="{data}" aria-labelledby="predicate-{name}" novalidate>'
            '<div class="kb-ask__fields">{fields}</div>{board}'
            '<div class="kb-ask__answer" id="{ident}-answer" role="status" aria-live="polite"></div>'
            '<p class="kb-ask__actions" data-pagefind-ignore><button type="button" class="kb-ask__share">{share}</button> '
            '<button type="button" class="kb-ask__yaml">{yaml}</button></p></form>').format(
            ident=self.ident, name=self.predicate.name, fields=fields, board=board,
            share=_("Copy a link to this question"), yaml=_("Copy as a worked example"), data=_json(self.data()))


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

