"""Every limit a snippet runs under, in one place: the evaluator, the helpers and the JS compiler read them here."""

MAX_SOURCE_CHARS = 8_000  # a predicate is a few lines; anything longer is a mistake or an attack
MAX_AST_NODES = 2_000  # keeps parsing and validation cheap
MAX_DEPTH = 30  # syntax nesting deeper than this is never needed and can exhaust the interpreter's stack
MAX_STEPS = 200_000  # default step budget per call: one per node visited, one per element an operation touches
# A whole `check` (and the tests that run every worked example): ~0.5 µs a step, so the examples of any input
# cost at most about MAX_RUN_STEPS × 0.5 µs of work wherever the cores share it (scripts/bench_hostile.py).
MAX_FILE_STEPS = 500_000  # all the worked examples of one rule or scenario file; the dearest rule spends ~5,000
MAX_RUN_STEPS = 4_000_000  # all the worked examples of one run, ~2 s of work; all 250 of today's spend ~12,000
MAX_PROBE_STEPS = 500_000  # shared by all the calls a diagram makes to find one boundary (real ones spend <15,000)
MAX_SEQUENCE = 10_000  # elements in any one list, tuple, dict or string a snippet builds
MAX_BUILT = 100_000  # elements one call may build in total, nested ones included: a few MB at most
MAX_VALUE_DEPTH = 50  # nesting of a value that is compared, hashed, passed in or returned (points are 2 deep)
MAX_INPUT_ELEMENTS = 100_000  # elements in one argument or result, nested ones included
MAX_INT = 2 ** 53 - 1  # whole numbers beyond ±MAX_INT are refused: a JavaScript number holds no larger one exactly
MAX_EXPONENT = 128  # largest exponent allowed in **, whole or not
MAX_ROUND_DIGITS = 20  # round(x, n) takes n from -20 to 20; more is meaningless for a float
MAX_SHOWN_CHARS = 60  # how much of a value an error message quotes
