"""Every budget, default and input limit a user, a client or a search can reach, defined once.

The rules' own bounds (card values, deck sizes) are here too, since the engine's arrays
and the input checks both read them. Modules import what they need from here; nothing
else defines these numbers.
"""

from kernels.encoding import MAX_DECKS, SUITED_KIND_COUNT

# --- the rules' numbers (RULES.md is silent on most: they keep every number a sensible
# size, far inside int64, so no rule number can overflow a kernel's table)
MAX_POINTS = 100_000          # a card value, a bonus, a penalty, a vulnerability minimum
MAX_SCORE = 1_000_000         # a target score, a vulnerability threshold, a match score given
MAX_JOKERS_PER_DECK = 2       # RULES.md §1: 2 per deck (the kernels hold at most 6 jokers)
MAX_DECK_CARDS = MAX_DECKS * (SUITED_KIND_COUNT + MAX_JOKERS_PER_DECK)   # 162: three decks
MAX_TABLE_MELDS = MAX_DECK_CARDS // 3                                    # 54 per team

# --- inputs
MAX_SEED = 2**63 - 1          # seeds are int64 in the engine
MAX_HAND_CARDS = 60           # the lay-down optimizer's hand (the kernels' packed search)
MAX_RANDOM_TABLE_MELDS = 40   # random_instance: table melds dealt at most
MAX_RECORD_BYTES = 50 * 1024 * 1024   # a game record file
MAX_TIME_LIMIT = 3600.0       # CP-SAT deterministic time; an hour bounds any request
MAX_GAMES = 10_000_000        # biriba simulate --games
MAX_ACTIONS = 10_000_000      # biriba simulate --max-actions
MAX_DEALS = 1_000_000         # biriba duel --deals

# --- the engine's lay-down budgets (memo entries). A plan for a huge hand (a large pile
# taken, many table melds) is the best lay-down found within it, not always the best there
# is; the pickup decision only ranks hand against hand + pile, so it estimates with less.
PLAN_BUDGET = 1 << 17         # one lay-down plan of the greedy player
PICKUP_BUDGET = 1 << 15       # the greedy player's estimate of a pile
RULE_BUDGET = 1 << 17         # the rules' check that a vulnerable team's meld reaches its minimum

# --- the search (ISMCTS)
DEFAULT_ITERATIONS = 400      # a search without a budget
MAX_ITERATIONS = 1_000_000    # iterations or rollouts asked for at most
MAX_SECONDS = 3600.0          # seconds asked for at most
MAX_WORKERS = 64              # worker processes at most
MAX_NODES = 200_000           # MO-ISMCTS: the trees' nodes at most (the single tree's cap)
CHUNK = 16                    # iterations per numba call under a time budget
CHUNK_SECONDS = 0.05          # and seconds per numba call at most, by the measured pace

# --- the evaluation (analyze, hint, coach, review: solver.search.evaluate)
MIN_SAMPLES = 32              # samples a turn needs before it gets figures
SCREEN = 8                    # samples of every turn when there are more than CONTENDERS
CONTENDERS = 16               # turns that go on past the screening
ROUND_GROWTH = 0.3            # a round adds this share of the best's samples
ROUND_MIN = 16                # samples per round at least
Z_SEPARATE = 2.8              # separated: the paired difference beyond this many standard errors
ANALYZE_SECONDS = 10.0        # biriba analyze's cap; it stops sooner once the best is separated
REVIEW_ITERATIONS = 3000      # the review's, the coach's and the hint's cap per decision
WORKERS = 2                   # evaluation processes: fixed, not the machine's cores, so a
                              # budget in iterations with a seed gives the same answer anywhere
NAMING_SECONDS = 0.1          # kept back from a time budget for naming the decisions

# --- the web server (biriba serve: analysis/web)
SERVE_BODY_BYTES = 64 * 1024          # a request body at most
SERVE_DEFAULT_SECONDS = 2.0           # an analysis or a hint without a budget
SERVE_MAX_SECONDS = 10.0              # one search's time at most
SERVE_MAX_ITERATIONS = 20_000         # one search's rollouts at most (the time cap still holds)
SERVE_REVIEW_ITERATIONS = 100         # a review's rollouts per decision without a budget
SERVE_REVIEW_MAX_SECONDS = 30.0       # a review's whole time at most
SERVE_QUEUE = 4                       # searches waiting for a process's one search slot
SERVE_PATIENCE = 30.0                 # seconds one waits at most, then 429
SERVE_GAME_IDLE_SECONDS = 3600.0      # a game untouched this long is deleted
SERVE_MAX_GAMES = 500                 # games kept at most
SERVE_OPPONENT_SECONDS = 1.0          # an ismcts opponent's time per decision at most
SERVE_OPPONENT_ITERATIONS = 2000      # and its iterations per decision at most
