"""Every write of the tournaments app, one module per concept.

Each service is keyword-only, typed and ``@transaction.atomic``; one that a person
triggers takes ``acting_user=`` (``None`` means the system itself: a management command
or the import) and checks that person's capabilities in the championship
(:mod:`tournaments.permissions`). Every write records an audit row in the same
transaction. Callers read ``services.result_record(...)``: the public names of the
modules are re-exported here.

Errors are ``ValueError`` subclasses split by cause (:mod:`.errors`). Their message says
what and where, in Catalan (the UI's first language; the msgids are translated through
Django i18n), and ``field`` names the form field the error belongs to when there is one,
so a form can show it next to that field.
"""

from tournaments.services.accounts import (
    SIGN_IN_DAYS,
    referee_account_create,
    sign_in_check,
    sign_in_refusal,
    sign_in_token,
    user_ensure,
)
from tournaments.services.analysis import (
    AnalysisRun,
    board_analyse,
    boards_analyse,
    round_analysis_enqueue,
)
from tournaments.services.boards import boards_generate, boards_regenerate_refusal
from tournaments.services.championships import (
    CREATE_PERMISSION,
    RULE_FIELDS,
    championship_create,
    championship_finish,
    championship_update_rules,
    deal_secret_publish,
    membership_grant,
    membership_revoke,
    membership_revoke_refusal,
    rules_edit_refusal,
)
from tournaments.services.deletion import (
    DeletionSummary,
    championship_delete,
    championship_delete_summary,
)
from tournaments.services.errors import (
    AccountError,
    AddressError,
    BoardsError,
    ChampionshipStateError,
    DrawError,
    GameConflict,
    NotAllowedError,
    PairsCsvError,
    RegistrationError,
    ResultConflict,
    ResultError,
    TournamentError,
)
from tournaments.services.games import (
    GameSaved,
    game_delete,
    game_record,
    game_record_at,
)
from tournaments.services.interchange import Imported, championship_export, championship_import
from tournaments.services.movements import RematchError, SeatingCheck, round_check
from tournaments.services.pairs import (
    PAIR_NUMBER_MAX,
    PLAYER_NAME_MAX,
    WITHDRAWAL_REASON_MAX,
    PairLine,
    PairsCsv,
    late_entry_round,
    pair_register,
    pair_remove,
    pair_short_names_set,
    pair_withdraw,
    pairs_import_csv,
    parse_pairs_csv,
    read_pairs_csv,
    registration_refusal,
)
from tournaments.services.results import (
    ResultData,
    ResultSaved,
    SaveKind,
    result_correct,
    result_delete,
    result_record,
    result_record_at,
    validate_result,
)
from tournaments.services.rounds import (
    ROUNDS_SETUP_MAX,
    round_close,
    round_draw,
    round_reopen,
    rounds_setup,
    rounds_setup_refusal,
    seating_set,
)
from tournaments.services.stage_setup import STAGES_MAX, stages_setup
from tournaments.services.stages import knockout_seat, stage_start

__all__ = [
    "CREATE_PERMISSION",
    "PAIR_NUMBER_MAX",
    "PLAYER_NAME_MAX",
    "ROUNDS_SETUP_MAX",
    "RULE_FIELDS",
    "SIGN_IN_DAYS",
    "STAGES_MAX",
    "WITHDRAWAL_REASON_MAX",
    "AccountError",
    "AddressError",
    "AnalysisRun",
    "BoardsError",
    "ChampionshipStateError",
    "DeletionSummary",
    "DrawError",
    "GameConflict",
    "GameSaved",
    "Imported",
    "NotAllowedError",
    "PairLine",
    "PairsCsv",
    "PairsCsvError",
    "RegistrationError",
    "RematchError",
    "ResultConflict",
    "ResultData",
    "ResultError",
    "ResultSaved",
    "SaveKind",
    "SeatingCheck",
    "TournamentError",
    "board_analyse",
    "boards_analyse",
    "boards_generate",
    "boards_regenerate_refusal",
    "championship_create",
    "championship_delete",
    "championship_delete_summary",
    "championship_export",
    "championship_finish",
    "championship_import",
    "championship_update_rules",
    "deal_secret_publish",
    "game_delete",
    "game_record",
    "game_record_at",
    "knockout_seat",
    "late_entry_round",
    "membership_grant",
    "membership_revoke",
    "membership_revoke_refusal",
    "pair_register",
    "pair_remove",
    "pair_short_names_set",
    "pair_withdraw",
    "pairs_import_csv",
    "parse_pairs_csv",
    "read_pairs_csv",
    "referee_account_create",
    "registration_refusal",
    "result_correct",
    "result_delete",
    "result_record",
    "result_record_at",
    "round_analysis_enqueue",
    "round_check",
    "round_close",
    "round_draw",
    "round_reopen",
    "rounds_setup",
    "rounds_setup_refusal",
    "rules_edit_refusal",
    "seating_set",
    "sign_in_check",
    "sign_in_refusal",
    "sign_in_token",
    "stage_start",
    "stages_setup",
    "user_ensure",
    "validate_result",
]
