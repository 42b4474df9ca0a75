"""Limits of the championship interchange file, the one home of every size the program
reads and writes (docs/file-format.md says none; docs/decisions.md records the choice).

The reader (:mod:`.reader`), the checks (:mod:`.load`) and the writer (:mod:`.dump`)
use these, and so does the web app's import and export: whatever the program exports
fits them, so it can be imported again.
"""

from __future__ import annotations

#: Largest JSON document read, in bytes (10^6 results took minutes and gigabytes).
MAX_DOCUMENT_BYTES = 50 * 1024 * 1024
#: Most results a document may hold.
MAX_RESULTS = 200_000
#: Round, table, board and pair numbers are 1..MAX_NUMBER.
MAX_NUMBER = 9999
#: Longest championship name, venue and player name, in characters.
MAX_NAME_LENGTH = 200
#: Longest player short name (``players[].short_name``), in characters.
MAX_SHORT_NAME_LENGTH = 60
#: Longest player id, in characters.
MAX_ID_LENGTH = 50
#: Longest slug, in characters.
MAX_SLUG_LENGTH = 100
#: Scale values and ``infraction_score`` lie strictly between -MAX_SCALE and MAX_SCALE...
MAX_SCALE = 10**6
#: ... with at most this many decimals (they are stored as such).
SCALE_PLACES = 4
#: Deepest nesting of arrays and objects reported by position when the parser gives up.
MAX_DEPTH = 100
#: Integers with more digits than this are not converted (they are out of every range).
MAX_INTEGER_DIGITS = 100
#: Problems listed in full; the rest are counted.
MAX_PROBLEMS = 200
#: Longest note of a result, in characters.
MAX_NOTE_LENGTH = 500
#: Largest draw seed of a round (a random 62-bit number).
MAX_DRAW_SEED = 2**62
#: Most deals one classic game's score sheet (``game.hands``) may list.
MAX_GAME_HANDS = 100
#: Classic rules' numbers (``game_target``, ``max_deals``, ``score_cap``...) are at most this.
MAX_CLASSIC_NUMBER = 9999
#: Most stages a championship file may list (``stages``; the web app takes as many).
MAX_STAGES = 5
#: Longest stage name, in characters.
MAX_STAGE_NAME_LENGTH = 60
#: Most groups of a groups stage, and most pairs qualified per group.
MAX_GROUPS = 64
#: Most pairs through a groups stage's second chance.
MAX_SECOND_CHANCE = 256
