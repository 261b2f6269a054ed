"""The engine's state and rule arrays: one flat int64 vector each, and their offsets.

A game state is one ``int64[SIZE]`` array that the numba rule functions
(:mod:`solver.engine.core`) read and write and the Python ``State`` wraps.
Cards are kind counts (53 per hand, meld or packet); the stock and the
discard pile are ordered card lists (the last entry is the top).

Rule numbers live in a second array (``R_*`` offsets), built once per game by
:func:`solver.engine.rules.engine_rules` from a :class:`solver.rules.RuleSet`.
"""

from kernels.encoding import JOKER, KIND_COUNT
from solver.limits import MAX_DECK_CARDS, MAX_TABLE_MELDS
from solver.rules import STOCK_EXHAUSTED_MODES

KINDS = KIND_COUNT      # card kinds per hand, meld or packet
MAX_PLAYERS = 6
MAX_TEAMS = 6           # partnership's individual option with 6 players
MAX_CARDS = MAX_DECK_CARDS
MAX_MELDS = MAX_TABLE_MELDS     # per team
MAX_PACKETS = 6         # one per team
INFO = 6                # per table meld: the six fields below
INFO_SHAPE = 0          # the meld's shape (kernels.params SHAPE: run, set, wild set)
INFO_HOME = 1           # its suit (a run) or rank (a set)
INFO_CLEAN = 2          # 1 when it holds no wild card
INFO_POINTS = 3         # card values + bonus, with the round's trump
INFO_SIZE = 4           # cards in the meld
INFO_AT_ONCE = 5        # venezuelan: the extra bonus of a biriba laid whole in one move (D35)

# phases
CHOOSE_TRUMP = 0
DRAW = 1
PLAY = 2
ROUND_OVER = 3
MATCH_OVER = 4

# why a round ended
NOT_OVER = 0
CLOSED = 1
STOCK_OUT = 2
NO_DRAW = 3
IDLE_OUT = 4

# action types (bits 48-51); the key is bits 0-41, the target table meld bits 42-47
ACTION_DRAW = 1
ACTION_PILE = 2
ACTION_LAY = 3
ACTION_EXTEND = 4
ACTION_DISCARD = 5
ACTION_TRUMP = 6
ACTION_REDRAW = 7
TYPE_SHIFT = 48
TARGET_SHIFT = 42
KEY_MASK = (1 << 42) - 1
TARGET_MASK = 63
MAX_ACTIONS = 1 << 14

# TOOK_PILE's value when a one-card pile was taken with one card in hand: that turn
# may not close (RULES.md §7, 000)
TOOK_LAST_CARD_PILE = 2

# --- state scalars ---------------------------------------------------------------
PHASE = 0
CURRENT = 1
DEALER = 2
TRUMP = 3               # suit 0..3, or -1
STOCK_N = 4
PILE_N = 5
TURNS = 6               # turns finished this round
ACTIONS = 7             # actions applied this match
TOOK_PILE = 8            # 0, 1 (the pile was taken this turn) or TOOK_LAST_CARD_PILE
BANNED = 9              # kind that may not be discarded this turn (one-card pile), or -1
MUST = 10               # kind that must be melded this turn (pile top), or -1
LAST_DRAWN = 11
REDRAW_OK = 12
TURN_POINTS = 13        # points laid this turn (vulnerability)
TURN_LAID = 14          # cards laid this turn
CLOSER = 15
IDLE = 16               # turns in a row with an empty stock and nothing laid
SOLO = 17               # three players: the one who took the 18-card packet, or -1
ROUND = 18
STOCK_OUT_BY = 19       # end_after_turn: who took the last stock card, or -1
END_REASON = 20
PLAYERS = 21
TEAMS = 22
RNG = 23                # dealing generator state (48-bit LCG)
MATCH_MODE = 24         # 1: rounds go on until the target; 0: one round
WINNER = 25             # match winner entity, or -1
VALVE = 26              # times the no-legal-action safety valve opened (should stay 0)
REDRAW_USED = 27
CUT = 28                # venezuelan: cards the dealer's cut missed by (D34), or NO_CUT
NO_CUT = 99             # CUT of a position set up by hand: no cut was made
SCALARS = 32

TEAM_OF = SCALARS                       # per seat: team this round
FRESH = TEAM_OF + MAX_PLAYERS           # per seat: holds an untouched packet
PENDING = FRESH + MAX_PLAYERS           # per seat: packet index + 1 to receive at turn end
ENTITY = PENDING + MAX_PLAYERS          # per seat: match entity (team, or seat with 3 players)
HANDS = ENTITY + MAX_PLAYERS            # per seat: 53 counts
KNOWN = HANDS + MAX_PLAYERS * KINDS     # per seat: cards the others know it holds
OPENED = KNOWN + MAX_PLAYERS * KINDS    # per team: has laid down this round
PACKET_TAKEN = OPENED + MAX_TEAMS       # per team: took its packet this round
ROUND_SCORE = PACKET_TAKEN + MAX_TEAMS  # per team
MELD_N = ROUND_SCORE + MAX_TEAMS        # per team: table melds
MINIMUM = MELD_N + MAX_TEAMS            # per team: least first lay-down this round
MATCH = MINIMUM + MAX_TEAMS             # per entity: match score
PACKET_N = MATCH + MAX_PLAYERS
PACKET_SIZE = PACKET_N + 1
PACKET_USED = PACKET_SIZE + MAX_PACKETS
PACKETS = PACKET_USED + MAX_PACKETS     # per packet: 53 counts
STOCK = PACKETS + MAX_PACKETS * KINDS
PILE = STOCK + MAX_CARDS
MELD_INFO = PILE + MAX_CARDS            # [team, meld, INFO]
MELDS = MELD_INFO + MAX_TEAMS * MAX_MELDS * INFO   # [team, meld, 53]
RED_THREES = MELDS + MAX_TEAMS * MAX_MELDS * KINDS   # per team: [3H, 3D] laid face up (threes)
OWN_MELD = RED_THREES + MAX_TEAMS * 2   # per seat: has laid a new meld this round (threes)
NEEDS_BIRIBA = OWN_MELD + MAX_PLAYERS   # per team: needs a biriba before its packet (threes)
CUT_BONUS = NEEDS_BIRIBA + MAX_TEAMS    # per team: the dealer's cut bonus (venezuelan)
# per seat: the kind it discarded at the end of its last turn + 1 (0: none this round, or
# its hand changed since: a packet taken); public, read by the search's inference
LAST_DISCARD = CUT_BONUS + MAX_TEAMS
SIZE = LAST_DISCARD + MAX_PLAYERS

# What a new round clears (deal_round), as [start, end) ranges of the offsets above: the
# seats' teams, packet marks and pending packets (not their match entities); the hands
# and known cards, the teams' opened and packet flags (the last round's scores stay
# readable); the teams' meld counts and minimums (not the match scores); and everything
# from the packets on (packets, stock, pile, table melds).
ROUND_RESET = ((TEAM_OF, ENTITY), (HANDS, ROUND_SCORE), (MELD_N, MATCH), (PACKET_N, SIZE))

# --- rule array --------------------------------------------------------------------
R_PLAYERS = 0
R_TEAMS = 1
R_DECKS = 2
R_JOKERS = 3
R_HAND_SIZE = 4
R_PACKET_SIZE = 5
R_PACKET_BIG = 6        # three players: the first packet's size (18)
R_TURN_UP = 7
R_BURY = 8              # a turned wild is buried (001), else a turned joker lets the first player choose
R_HAS_TRUMP = 9
R_RESTRICTED = 10       # partnership pile pickup condition
R_MUST_MELD = 11        # the pile's top card must be melded this turn
R_ONE_CARD = 12         # a one-card pile's card may not be discarded this turn
R_REDRAW = 13           # barimba: the first drawer may discard the drawn card and draw again
R_FIRST_BIRIBA = 14     # the packet comes with the team's first biriba (001)
R_CLOSING_BONUS = 15
R_CLOSE_BIRIBAS = 16
R_CLOSE_CLEAN = 17
R_CLOSE_RUN_SET = 18
R_NO_PACKET_PENALTY = 19
R_UNTOUCHED_PENALTY = 20
R_STOCK_MODE = 21       # index in solver.rules.STOCK_EXHAUSTED_MODES:
STOCK_END_AFTER_TURN = STOCK_EXHAUSTED_MODES.index("end_after_turn")   # pile.draw marks the
                                                                       # last card for it
R_TARGET = 22
R_BIRIBA_SIZE = 23
R_WILD_TWOS = 24
R_VULN_N = 25
R_VULN = 26             # up to R_VULN_MAX pairs (threshold, minimum)
R_VULN_MAX = 4
R_RED_THREES = 34       # threes: red threes are laid face up and scored (003)
R_BLACK_FREEZE = 35     # threes: black threes freeze the discard pile (003)
R_OWN_MELD_FIRST = 36   # threes: a meld of one's own before extending a partner's (003)
R_BIRIBA_BEFORE = 37    # threes: from this match score a biriba before the packet (-1: never)
R_RED_BONUS = 38        # threes: each red three with a biriba (0: the best biriba's bonus)
R_RED_PENALTY = 39      # threes: each red three without a biriba
R_THREE_ALONE = 40      # venezuelan: 3 players each alone with a packet of their own
R_CUT_EXACT = 41        # venezuelan: the dealer's bonus for an exact cut
R_CUT_NEAR = 42         # ... for a cut one card off
R_CUT_ERROR = 43        # ... the most cards a cut misses by (uniform; 0: no cut)
R_DEALER_WILDS = 44     # venezuelan: the wilds at the bottom of the deck go to the dealer
R_WILD_BAR = 45         # venezuelan: an unfinished wild set bars wilds from other melds
R_CLOSE_NO_DISCARD = 46  # venezuelan: going out by melding the last card
R_AT_ONCE = 47          # venezuelan: extra bonus of a biriba laid whole in one move
R_AT_ONCE_WILD = 48     # ... of a wild-card biriba laid whole
R_SIZE = 49

# the red and the black threes (kernels.encoding: suit * 13 + rank index; S H D C)
RED_THREE_KINDS = (1 * 13 + 2, 2 * 13 + 2)     # 3H, 3D
BLACK_THREE_KINDS = (0 * 13 + 2, 3 * 13 + 2)   # 3S, 3C
