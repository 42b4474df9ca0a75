/*
 * engine._ddcore: the compiled double-dummy solver of Botifarra (see engine/dd.py for the
 * public API and engine/dd_python.py for the pure-Python reference it must agree with).
 *
 * Cards are bits of a 48-bit mask: bit = suit index (O C E B) x 12 + strength, strength 11
 * for the manilla (9) down to 0 for the 2, so a higher bit of a suit beats a lower one.
 * Seats are play-order indices 0..3 (N W S E); NS are the even ones.
 *
 * Search: fail-soft alpha-beta over NS points (card points + 1 per trick) driven by
 * null-window searches (MTD(f)): the first at a guess from a greedy playout, then one
 * point on from each answer in the direction it went until the bounds meet. A two-way
 * hashed transposition table at trick starts holds a lower and an upper bound on the NS
 * points still to win (relative to the points already taken, so every null-window
 * search reuses the others' work) and the best lead; it is keyed by the leader, the
 * declaration and rules, and the four hands with the pointless cards (8..2) of each
 * suit renumbered by rank among those still in play (positions that differ only in
 * which small cards are gone share an entry), packed as three masks so that two 32-byte
 * entries fill one cache line; the line is prefetched while the bounds are computed and
 * the leads ordered (at the last seat of a trick, those of the next trick's starts
 * after each of its legal cards, before its cards are ordered), and the table (32 MB)
 * asks for huge pages; a start whose key was prefetched by the last seat reads its
 * entry before anything else, and the last seat computes no key for a start the window
 * already settles. The last seat of a trick also reads those entries before it plays a
 * card: one whose bound settles the window ends its search (an enhanced transposition
 * cutoff). Equivalent cards (same points, no card in play between them) are searched
 * once; a seat with one legal card inside a trick plays it at once (no ordering, no
 * history); ordering by killer cards (the card that last caused a cutoff in the same
 * context: for a lead the tricks left, the seat and the last four tricks; inside a
 * trick the tricks left, the place in it, the seat, the suit led, which side is winning
 * it and the three tricks before), the table's best lead, a history of cutoffs at leads
 * and trick heuristics (a card the opponent still to play cannot beat takes the trick;
 * no points loaded on a trick that opponent can still take; leads of winners no
 * opponent can ruff, to a partner's card above the opponents' or to a partner's ruff);
 * cutoffs from the points still to play and from the points each side is sure of (top
 * trumps, cashed top cards and the lowest cards the other seats must follow with). The
 * last two tricks are searched by a plain alpha-beta, without the table or the move
 * ordering.
 *
 * The legal-play rules mirror engine/play.py's legal_cards exactly (obligada, lliure,
 * carregar with both scopes); tests compare the two on random positions.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define NOTRUMP 4
#define F_LLIURE 1
#define F_CARREGAR 2
#define F_ALWAYS 4
#define ALL48 0xFFFFFFFFFFFFULL

static const uint64_t SUIT_MASK[4] = {
    0xFFFULL, 0xFFFULL << 12, 0xFFFULL << 24, 0xFFFULL << 36};
/* Point cards (strengths 7..11: the 10, 11, 12, 1 and 9) of every suit. */
static const uint64_t POINT_CARDS = 0xF80ULL | (0xF80ULL << 12) | (0xF80ULL << 24) | (0xF80ULL << 36);
static int card_points[48];

/* A card's suit, and the cards of its suit above it (tables: a load is cheaper than the
   division and the shifts, and both are asked at almost every node). */
static uint8_t suit_table[48];
static uint64_t above_table[48];
static inline int suit_of(int bit) { return suit_table[bit]; }
static inline int lowbit(uint64_t m) { return __builtin_ctzll(m); }
static inline int highbit(uint64_t m) { return 63 - __builtin_clzll(m); }
static inline int popcount(uint64_t m) { return __builtin_popcountll(m); }

/* ------------------------------------------------------------------ legal play */

static uint64_t lowest_of_each_suit(uint64_t cards) {
    uint64_t out = 0;
    for (int s = 0; s < 4; s++) {
        uint64_t m = cards & SUIT_MASK[s];
        if (m) out |= m & (~m + 1);
    }
    return out;
}

/* Cards that would take the lead from ``winner``: higher of its suit, or any trump when
   the winner is not a trump (engine.play._beats). */
static uint64_t beating_mask(int winner, int trump) {
    int s = suit_of(winner);
    uint64_t above = above_table[winner];
    if (trump != NOTRUMP && s != trump) above |= SUIT_MASK[trump];
    return above;
}

/* engine.play.legal_cards: ``win`` is the index in ``trick`` of the card winning it. */
static inline uint64_t legal_moves(uint64_t hand, const int *trick, int ntrick, int win, int trump,
                            int flags) {
    if (ntrick == 0) return hand;
    int led = suit_of(trick[0]);
    int partner_winning = (win == ntrick - 2);
    uint64_t following = hand & SUIT_MASK[led];
    uint64_t beats = beating_mask(trick[win], trump);
    if (flags & F_LLIURE) {
        if (following) {
            if (!partner_winning && (following & beats)) return following & beats;
            return following;
        }
        if (!partner_winning && (hand & beats)) return hand & beats;
        return hand;
    }
    if (partner_winning) { /* obligada rules 1 and 2 */
        uint64_t from = following ? following : hand;
        return (from & POINT_CARDS) | lowest_of_each_suit(from);
    }
    int loading = (flags & F_CARREGAR) && ntrick == 1;
    if (following) { /* rule 3 */
        if (following & beats) return following & beats;
        uint64_t allowed = lowest_of_each_suit(following);
        if (loading && (flags & F_ALWAYS)) allowed |= following & POINT_CARDS;
        return allowed;
    }
    /* rule 4 */
    if (hand & beats) return hand & beats;
    uint64_t allowed = lowest_of_each_suit(hand);
    if (loading) allowed |= hand & POINT_CARDS;
    return allowed;
}

/* ------------------------------------------------------------------ state */

/* The last four tricks as four base-13 digits, the latest lowest: each the trick's suit
   led x 3 + who won it (0 an opponent of its leader, 1 the leader's partner, 2 the leader
   himself); 12 where there was no trick (the first tricks of the search). */
#define PREV_CONTEXTS (13 * 13 * 13 * 13)
#define PREV_NONE (PREV_CONTEXTS - 1)

typedef struct {
    uint64_t hand[4];
    int trump, flags;
    int leader;
    int ntrick;
    int trick[4];
    int win;       /* index in trick of the card winning it */
    int remaining; /* points still to go: cards in hands and on the table, trick bonuses */
    uint8_t config;
    int prev;      /* the last four tricks (PREV_CONTEXTS) */
    long long nodes;
} State;

/* The points of the four cards of a completed trick, with the trick's 1. */
static inline int trick_points(const State *st) {
    return 1 + card_points[st->trick[0]] + card_points[st->trick[1]] +
           card_points[st->trick[2]] + card_points[st->trick[3]];
}

static inline int winner_after(const State *st, int card) {
    if (st->ntrick == 0) return 0;
    int best = st->trick[st->win];
    int bs = suit_of(best), cs = suit_of(card);
    if (cs == bs) return card > best ? st->ntrick : st->win;
    if (st->trump != NOTRUMP && cs == st->trump) return st->ntrick;
    return st->win;
}

/* ------------------------------------------------------------------ transposition table */

/* An entry: the position's key (three masks of the normalized hands: the cards in play,
   those of the seats W and E, those of the seats S and E), the bounds on the NS points
   still to win from it, and the best lead; two entries fill one 64-byte cache line. */
typedef struct {
    uint64_t k[3];
    int8_t low, high;
    uint8_t tag;    /* (config x 4 + leader) + 1; 0 = empty */
    uint8_t best;   /* normalized lead bit + 1; 0 = none */
    uint8_t depth;  /* tricks left */
    uint8_t age;    /* the search that last used it (replace older entries first) */
    uint8_t pad[2];
} Entry;

/* 1 M entries of 32 bytes. With the killer ordering, 2^19 to 2^21 entries ran alike and
   2^22 4 % slower (boards 1-20, interleaved; 0.7 % more nodes at 2^20 than at 2^22). */
#define TT_BITS 20
#define TT_SIZE (1u << TT_BITS)
static void *table_memory = NULL;
static Entry *table = NULL;
static uint8_t current_age = 0;

/* compress[low][held]: the small cards (strength 0..6) ``held`` out of those still in play
   ``low`` of one suit, renumbered from the top: the highest in play becomes 6, the next 5... */
static uint8_t compress[128][128];

static void init_compress(void) {
    for (int low = 0; low < 128; low++) {
        for (int held = 0; held < 128; held++) {
            if ((held & ~low) != 0) { compress[low][held] = 0; continue; }
            int out = 0, pos = 6;
            for (int b = 6; b >= 0; b--) {
                if (low & (1 << b)) {
                    if (held & (1 << b)) out |= 1 << pos;
                    pos--;
                }
            }
            compress[low][held] = (uint8_t)out;
        }
    }
}

/* ``compress`` of the mask ``held`` (any union of hands) in every suit, with ``all`` the
   cards in play: point cards kept, small cards renumbered. Renumbering only selects bits,
   so the union of two normalized hands is the normalized union. */
static inline uint64_t normalize_mask(uint64_t all, uint64_t held) {
    uint64_t out = held & POINT_CARDS;
    for (int s = 0; s < 4; s++) {
        int low = (int)((all >> (12 * s)) & 0x7F);
        out |= (uint64_t)compress[low][(held >> (12 * s)) & 0x7F] << (12 * s);
    }
    return out;
}

/* The actual card of a normalized bit (inverse of ``normalize_mask`` for one card). */
static int denormalize(const State *st, int nbit) {
    int s = suit_of(nbit), pos = nbit % 12;
    if (pos >= 7) return nbit;
    uint64_t all = st->hand[0] | st->hand[1] | st->hand[2] | st->hand[3];
    int low = (int)((all >> (12 * s)) & 0x7F);
    int rank_from_top = 6 - pos;
    for (int b = 6; b >= 0; b--) {
        if (low & (1 << b)) {
            if (rank_from_top == 0) return 12 * s + b;
            rank_from_top--;
        }
    }
    return -1;
}

static int normalized_bit(const State *st, int bit) {
    int s = suit_of(bit), pos = bit % 12;
    if (pos >= 7) return bit;
    uint64_t all = st->hand[0] | st->hand[1] | st->hand[2] | st->hand[3];
    int low = (int)((all >> (12 * s)) & 0x7F);
    return 12 * s + 6 - popcount((uint64_t)(low & ~((2 << pos) - 1)));
}

typedef struct {
    uint64_t k[3];
    uint8_t tag;
    Entry *bucket;
} Key;

/* The rest of a key whose masks are set: the tag, the bucket, and the line prefetched. */
static inline void finish_key(Key *key, int leader, int config) {
    key->tag = (uint8_t)(config * 4 + leader + 1);
    uint64_t x = key->k[0] * 0x9E3779B97F4A7C15ULL;
    x ^= key->k[1] * 0xC2B2AE3D27D4EB4FULL;
    x ^= key->k[2] * 0x165667B19E3779F9ULL;
    x ^= (uint64_t)key->tag * 0xFF51AFD7ED558CCDULL;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 32;
    key->bucket = &table[(x >> (64 - TT_BITS)) & ~1ULL];
    __builtin_prefetch(key->bucket);
}

/* The masks of a key: the normalized cards in play, those of W and E, those of S and E. */
static inline void key_masks(const uint64_t hand[4], Key *key) {
    uint64_t all = hand[0] | hand[1] | hand[2] | hand[3];
    key->k[0] = normalize_mask(all, all);
    key->k[1] = normalize_mask(all, hand[1] | hand[3]);
    key->k[2] = normalize_mask(all, hand[2] | hand[3]);
}

/* The key of the trick start with these hands and leader (the line prefetched). */
static inline void make_key_of(const uint64_t hand[4], int leader, int config, Key *key) {
    key_masks(hand, key);
    finish_key(key, leader, config);
}

/* The masks of ``base`` (key_masks of ``hand``) once the card ``bit`` has left the hands:
   only its own suit changes, and only its small cards when it is one of them. */
static inline void key_masks_without(const Key *base, const uint64_t hand[4], int bit, Key *key) {
    uint64_t b = 1ULL << bit;
    if (b & POINT_CARDS) {
        for (int i = 0; i < 3; i++) key->k[i] = base->k[i] & ~b;
        return;
    }
    int shift = 12 * suit_of(bit);
    uint64_t small = 0x7FULL << shift;
    uint64_t all = hand[0] | hand[1] | hand[2] | hand[3];
    int low = (int)(((all & ~b) >> shift) & 0x7F);
    key->k[0] = (base->k[0] & ~small) | (uint64_t)compress[low][low] << shift;
    key->k[1] = (base->k[1] & ~small) |
                (uint64_t)compress[low][(((hand[1] | hand[3]) & ~b) >> shift) & 0x7F] << shift;
    key->k[2] = (base->k[2] & ~small) |
                (uint64_t)compress[low][(((hand[2] | hand[3]) & ~b) >> shift) & 0x7F] << shift;
}

static inline void make_key(const State *st, Key *key) {
    make_key_of(st->hand, st->leader, st->config, key);
}

static inline int same_key(const Entry *e, const Key *key) {
    return e->tag == key->tag && e->k[0] == key->k[0] && e->k[1] == key->k[1] &&
           e->k[2] == key->k[2];
}

static Entry *tt_find(const Key *key) {
    for (int i = 0; i < 2; i++) {
        Entry *e = &key->bucket[i];
        if (same_key(e, key)) {
            e->age = current_age;
            return e;
        }
    }
    return NULL;
}

static void tt_store(const Key *key, int depth, int low, int high, int best) {
    Entry *slot = NULL;
    for (int i = 0; i < 2; i++) {
        Entry *e = &key->bucket[i];
        if (same_key(e, key)) {
            if (e->low > low) low = e->low;
            if (e->high < high) high = e->high;
            if (best < 0 && e->best) best = e->best - 1;
            slot = e;
            break;
        }
    }
    if (slot == NULL) {
        /* An empty slot, else one left by an earlier search, else the shallower of the
           two (a deeper one saved more work). */
        Entry *a = &key->bucket[0], *b = &key->bucket[1];
        if (a->tag == 0) slot = a;
        else if (b->tag == 0) slot = b;
        else if (a->age != current_age) slot = a;
        else if (b->age != current_age) slot = b;
        else slot = (a->depth <= b->depth) ? a : b;
    }
    memcpy(slot->k, key->k, sizeof(slot->k));
    slot->low = (int8_t)low;
    slot->high = (int8_t)high;
    slot->tag = key->tag;
    slot->best = (uint8_t)(best >= 0 ? best + 1 : 0);
    slot->depth = (uint8_t)depth;
    slot->age = current_age;
}

/* ------------------------------------------------------------------ bounds */

/* Points each side is sure to take, at the start of a trick (``sure[0]`` NS, ``sure[1]``
   EW); NS then take between sure[0] and remaining - sure[1].

   - Top trumps: the run of the highest trumps in play held by one side wins wherever it
     is played (only a higher trump of the same run could beat one), so that side takes
     their points and at least as many tricks as the longer of its two holdings of them.
   - The side to lead cashes its leader's top cards of each suit, one trick each: in
     botifarra all of them; in a trump hand, of a plain suit only as many as both
     opponents can follow (so neither can ruff; an opponent without trumps sets no
     limit). The partner's cards in those tricks go to the same side, so a top trump of
     the partner played there still counts. The other three seats play to those tricks
     at least as many cards of the suit as they can (all of them are lower, and each
     of them ends up either played there or discarded in another of the tricks), so
     the side also takes at least the points of each seat's lowest min(tricks, length)
     cards of the suit. */
static void sure_points(const State *st, int sure[2]) {
    uint64_t all = st->hand[0] | st->hand[1] | st->hand[2] | st->hand[3];
    int p = st->leader;
    int trump = st->trump;
    int run_side = -1, run_points = 0, run_count[4] = {0, 0, 0, 0};
    sure[0] = sure[1] = 0;
    if (trump != NOTRUMP) {
        uint64_t m = all & SUIT_MASK[trump];
        while (m) {
            int top = highbit(m);
            int holder = 0;
            while (!((st->hand[holder] >> top) & 1)) holder++;
            if (run_side < 0) run_side = holder & 1;
            else if ((holder & 1) != run_side) break;
            run_points += card_points[top];
            run_count[holder]++;
            m &= ~(1ULL << top);
        }
    }
    int cash_points = 0, cash_tricks = 0;
    uint64_t mine = st->hand[p];
    for (int s = 0; s < 4; s++) {
        if (s == trump) continue;
        uint64_t suit_mine = mine & SUIT_MASK[s];
        if (!suit_mine) continue;
        uint64_t m = all & SUIT_MASK[s];
        int limit = 12;
        if (trump != NOTRUMP) {
            /* an opponent without trumps can never ruff */
            uint64_t h1 = st->hand[(p + 1) & 3], h3 = st->hand[(p + 3) & 3];
            int o1 = (h1 & SUIT_MASK[trump]) ? popcount(h1 & SUIT_MASK[s]) : 12;
            int o2 = (h3 & SUIT_MASK[trump]) ? popcount(h3 & SUIT_MASK[s]) : 12;
            limit = o1 < o2 ? o1 : o2;
        }
        int k = 0;
        for (; m && k < limit; k++) {
            int top = highbit(m);
            if (!((suit_mine >> top) & 1)) break;
            cash_points += card_points[top];
            m &= ~(1ULL << top);
        }
        cash_tricks += k;
        /* The other three seats play at least min(k, their length) cards of the suit in
           the cashing, all to the leader's side: at least their lowest ones. */
        for (int q = 1; q < 4 && k; q++) {
            uint64_t other = st->hand[(p + q) & 3] & SUIT_MASK[s];
            for (int j = 0; other && j < k; j++) {
                cash_points += card_points[lowbit(other)];
                other &= other - 1;
            }
        }
    }
    int lead_side = p & 1;
    if (run_side >= 0) {
        int a = run_side, b = run_side + 2; /* the two seats of the run's side */
        int tricks = run_count[a] > run_count[b] ? run_count[a] : run_count[b];
        if (run_side == lead_side) {
            int with_cash = cash_tricks + run_count[p];
            int partner = run_count[(p + 2) & 3];
            int t2 = with_cash > partner ? with_cash : partner;
            sure[run_side] = run_points + cash_points + (t2 > tricks ? t2 : tricks);
            return;
        }
        sure[run_side] = run_points + tricks;
    }
    sure[lead_side] = cash_points + cash_tricks;
}

/* ------------------------------------------------------------------ move ordering */

typedef struct {
    int bit;
    int score;
} Move;

/* History heuristic for leads: cutoffs per (declaration, seat, card) at trick starts,
   weighted by 2^(tricks left) (the square searched ~3% more nodes), kept between searches
   and divided by 16 when large. Inside a trick the killers below order better (with the
   history there too, 1-3% more nodes). */
static uint32_t history[5][4][48];

/* Killer cards: the card that last caused a cutoff in the same context, tried first
   (before the table's best lead). A lead's context is the tricks left, the seat and the
   last four tricks (State.prev: each one's suit led and who won it); a card inside a
   trick's, the tricks left, its place in the trick, the seat, the suit led, whether its
   own side is winning the trick so far and the three tricks before. Siblings in the
   search share their context and mostly their refutation. Nodes on boards 1-20 x 5
   (boards 41-60 in brackets): 401 M without killers; 386 M with killer leads by tricks
   left and seat alone; 262 M (244 M) with the killers inside tricks too; 225 M (211 M)
   with the last trick's suit and whether its leading side won it in a lead's context;
   214 M (201 M) with the killer lead tried before the table's best; with who won each
   trick (leader, partner, opponent) and the last 1, 2, 3, 4 tricks: 208 M (198 M), 191
   M (183 M), 180 M (168 M), 175 M (162 M); with the last 1, 2, 3 tricks in a card's
   context inside a trick as well: 169 M (162 M), 161 M (157 M), 156 M (154 M), the last
   two x1.08 and x1.02 less CPU (interleaved). Reset at every solve (5 MB in all); -1:
   none. */
static int8_t lead_killer[13][4][PREV_CONTEXTS];
static int8_t reply_killer[13][4][4][4][2][13 * 13 * 13];

static inline int8_t *reply_killer_of(const State *st, int player) {
    int winning = ((st->leader + st->win) & 1) == (player & 1);
    return &reply_killer[popcount(st->hand[st->leader]) + 1][st->ntrick][player]
                        [suit_of(st->trick[0])][winning][st->prev % (13 * 13 * 13)];
}

/* Moves the card ``bit`` to the front of ``moves`` when it is there (the order of the
   others kept). */
static inline void move_to_front(Move *moves, int n, int bit) {
    for (int i = 1; i < n; i++) {
        if (moves[i].bit == bit) {
            Move mv = moves[i];
            memmove(moves + 1, moves, i * sizeof(Move));
            moves[0] = mv;
            return;
        }
    }
}

static void age_history(void) {
    memset(lead_killer, -1, sizeof(lead_killer));
    memset(reply_killer, -1, sizeof(reply_killer));
    uint32_t *h = &history[0][0][0];
    size_t n = sizeof(history) / sizeof(history[0][0][0]);
    uint32_t top = 0;
    for (size_t i = 0; i < n; i++)
        if (h[i] > top) top = h[i];
    if (top < (1u << 24)) return;
    for (size_t i = 0; i < n; i++) h[i] >>= 4;
}

/* Could ``hand`` (following the suit led if it can) take the lead from ``winner``? */
static inline int can_beat(uint64_t hand, int led, int winner, int trump) {
    uint64_t follow = hand & SUIT_MASK[led];
    return ((follow ? follow : hand) & beating_mask(winner, trump)) != 0;
}

static inline uint64_t legal_of(const State *st, int player) {
    return legal_moves(st->hand[player], st->trick, st->ntrick, st->win, st->trump, st->flags);
}

/* The ``legal`` cards of ``player`` (legal_of), one per class of equivalent cards, best
   guesses first. ``use_history`` 0 gives a fixed order (the choice among optimal cards
   must not depend on earlier searches); the history only orders leads. */
static int gen_moves(const State *st, int player, uint64_t legal, Move *moves, int use_history) {
    if (!(legal & (legal - 1))) { /* a forced card */
        moves[0].bit = lowbit(legal);
        moves[0].score = 0;
        return 1;
    }
    uint64_t in_play = st->hand[0] | st->hand[1] | st->hand[2] | st->hand[3];
    for (int i = 0; i < st->ntrick; i++) in_play |= 1ULL << st->trick[i];
    int n = 0;
    int trump = st->trump;
    int side = player & 1;
    /* Who wins the trick so far, and would this card take it? */
    int winning_side = -1, winner_card = -1;
    if (st->ntrick) {
        winner_card = st->trick[st->win];
        winning_side = (st->leader + st->win) & 1;
    }
    uint64_t beats = st->ntrick ? beating_mask(winner_card, trump) : 0;
    int last = (st->ntrick == 3);
    uint64_t partner_hand = st->hand[(player + 2) & 3];
    /* The opponent still to play to this trick after this seat (none for the fourth). */
    uint64_t next_opp = st->ntrick < 3 ? st->hand[(player + 1) & 3] : 0;
    int led = st->ntrick ? suit_of(st->trick[0]) : 0;
    const uint32_t *hist = history[st->trump][player];
    if (st->ntrick) use_history = 0;
    for (uint64_t m = legal; m; m &= m - 1) {
        int bit = lowbit(m);
        int s = suit_of(bit);
        /* Equivalent cards: skip when the next higher card in play of the suit is ours,
           legal and worth the same. */
        uint64_t above = in_play & above_table[bit];
        if (above) {
            int next = lowbit(above);
            if (((legal >> next) & 1) && card_points[next] == card_points[bit]) continue;
        }
        int pts = card_points[bit];
        int strength = bit - 12 * s;
        int score;
        if (st->ntrick == 0) {
            uint64_t suit_play = in_play & SUIT_MASK[s];
            int top = highbit(suit_play) == bit;
            uint64_t o1 = st->hand[(player + 1) & 3], o3 = st->hand[(player + 3) & 3];
            int ruffable = trump != NOTRUMP && s != trump &&
                           ((!(o1 & SUIT_MASK[s]) && (o1 & SUIT_MASK[trump])) ||
                            (!(o3 & SUIT_MASK[s]) && (o3 & SUIT_MASK[trump])));
            if (top && !ruffable) {
                score = 500 + pts * 10 + strength;
            } else if (!ruffable && (partner_hand & SUIT_MASK[s]) &&
                       highbit(partner_hand & SUIT_MASK[s]) >
                           highbit(((o1 | o3) & SUIT_MASK[s]) | 1)) {
                score = 400 - pts * 10; /* to a partner's card above the opponents' */
            } else if (trump != NOTRUMP && s != trump && !(partner_hand & SUIT_MASK[s]) &&
                       (partner_hand & SUIT_MASK[trump])) {
                score = 380 - pts * 20 - strength; /* for the partner to ruff */
            } else {
                score = 200 - pts * 20;
                /* a suit whose top card the next seat holds first (measured: ~10% fewer
                   nodes) */
                if ((o1 >> highbit(suit_play)) & 1) score += 60;
            }
        } else {
            int takes = (beats >> bit) & 1;
            if (takes && winning_side == side &&
                (last || !can_beat(next_opp, led, winner_card, trump))) {
                score = 450 + pts * 10 - strength; /* overtakes a sure partner: a load */
            } else if (takes) {
                if (last || !can_beat(next_opp, led, bit, trump))
                    score = 600 + pts * 10 - strength; /* the trick is ours */
                else score = 350 - strength + (s == trump ? 0 : pts);
            } else if (winning_side == side) {
                if (last || !can_beat(next_opp, led, winner_card, trump))
                    score = 450 + pts * 10 - strength; /* load the partner's trick */
                else
                    score = 150 - pts * 20 - strength; /* the next opponent may take it */
            } else {
                score = 100 - pts * 20 - strength; /* a cheap discard */
            }
        }
        moves[n].bit = bit;
        /* The fixed rules above, then for leads the history of cutoffs to break ties
           (history first searched ~10% more nodes; the rules for leads leave it more ties
           to break). The killers and the table's best lead are put first by the caller. */
        if (use_history) {
            uint32_t h = hist[bit] >> 4;
            score = score * 65536 + (int)(h < 0xFFFF ? h : 0xFFFF);
        }
        moves[n].score = score;
        n++;
    }
    /* insertion sort, best first */
    for (int i = 1; i < n; i++) {
        Move mv = moves[i];
        int j = i - 1;
        while (j >= 0 && moves[j].score < mv.score) {
            moves[j + 1] = moves[j];
            j--;
        }
        moves[j + 1] = mv;
    }
    return n;
}

/* ------------------------------------------------------------------ search */

static inline int search_key(State *st, int alpha, int beta, const Key *pre);
static inline int search(State *st, int alpha, int beta) { return search_key(st, alpha, beta, NULL); }

/* NS points from the current trick on after the seat to play plays ``bit``; ``pre``: the
   key of the next trick's start when this card ends a trick and it was computed before. */
static int play_and_search_key(State *st, int bit, int alpha, int beta, const Key *pre) {
    int player = (st->leader + st->ntrick) & 3;
    int saved_win = st->win;
    st->win = winner_after(st, bit);
    st->hand[player] &= ~(1ULL << bit);
    st->trick[st->ntrick++] = bit;
    int value;
    if (st->ntrick == 4) {
        int leader = st->leader;
        int winner = (leader + st->win) & 3;
        int points = trick_points(st);
        int gain = (winner & 1) ? 0 : points;
        int t[4];
        memcpy(t, st->trick, sizeof(t));
        int prev = st->prev;
        st->prev = (st->prev % (13 * 13 * 13)) * 13 + suit_of(t[0]) * 3 +
                   (winner == leader ? 2 : (winner & 1) == (leader & 1));
        st->ntrick = 0;
        st->leader = winner;
        st->remaining -= points;
        st->win = 0;
        value = gain + search_key(st, alpha - gain, beta - gain, pre);
        st->prev = prev;
        st->remaining += points;
        st->leader = leader;
        memcpy(st->trick, t, sizeof(t));
        st->ntrick = 4;
        st->win = (winner - leader) & 3;
    } else {
        value = search(st, alpha, beta);
    }
    st->ntrick--;
    st->hand[player] |= 1ULL << bit;
    st->win = saved_win;
    return value;
}

static inline int play_and_search(State *st, int bit, int alpha, int beta) {
    return play_and_search_key(st, bit, alpha, beta, NULL);
}

/* The last trick: every hand holds one card, play is forced. */
static int last_trick(const State *st) {
    int leader = st->leader;
    int best = lowbit(st->hand[leader]);
    int win = leader;
    int points = 1 + card_points[best];
    for (int k = 1; k < 4; k++) {
        int p = (leader + k) & 3;
        int c = lowbit(st->hand[p]);
        points += card_points[c];
        if (suit_of(c) == suit_of(best)) {
            if (c > best) { best = c; win = p; }
        } else if (st->trump != NOTRUMP && suit_of(c) == st->trump) {
            best = c;
            win = p;
        }
    }
    return (win & 1) ? 0 : points;
}

/* The last two tricks, from the seat to play in the first of them (every hand holds at
   most two cards): fail-soft alpha-beta over the at most 16 ways to play it, the last
   trick forced; no table, no ordering. */
static int two_tricks(State *st, int alpha, int beta) {
    int player = (st->leader + st->ntrick) & 3;
    uint64_t legal = legal_moves(st->hand[player], st->trick, st->ntrick, st->win, st->trump,
                                 st->flags);
    int maximizing = !(player & 1);
    int best = maximizing ? -1 : 1000;
    for (; legal; legal &= legal - 1) {
        int bit = lowbit(legal);
        int saved_win = st->win;
        st->win = winner_after(st, bit);
        st->hand[player] &= ~(1ULL << bit);
        st->trick[st->ntrick++] = bit;
        int value;
        if (st->ntrick == 4) {
            int leader = st->leader;
            int winner = (leader + st->win) & 3;
            int points = trick_points(st);
            st->leader = winner;
            value = ((winner & 1) ? 0 : points) + last_trick(st);
            st->leader = leader;
        } else {
            value = two_tricks(st, alpha, beta);
        }
        st->ntrick--;
        st->hand[player] |= 1ULL << bit;
        st->win = saved_win;
        if (maximizing) {
            if (value > best) {
                best = value;
                if (best >= beta) break;
                if (best > alpha) alpha = best;
            }
        } else if (value < best) {
            best = value;
            if (best <= alpha) break;
            if (best < beta) beta = best;
        }
    }
    return best;
}

/* A node that orders its cards: a trick start, or a seat with a choice (``legal``, its
   legal cards; 0 at a trick start). */
static int search_node(State *st, int alpha, int beta, const Key *pre, uint64_t legal) {
    st->nodes++;
    Key key;
    int keyed = 0;
    int player = (st->leader + st->ntrick) & 3;
    int maximizing = !(player & 1);
    Move moves[12];
    int n;
    Key keys[12];
    int key_bits[12], key_gain[12], nkeys = 0;
    if (st->ntrick == 0) {
        uint64_t lead = st->hand[st->leader];
        if (!lead) return 0;
        int remaining = st->remaining;
        if (remaining <= alpha) return remaining;
        if (beta <= 0) return 0;
        if (!(lead & (lead - 1))) return last_trick(st);
        if (popcount(lead) == 2) return two_tricks(st, alpha, beta);
        /* A key from the trick's last seat was prefetched a while ago: its entry is read
           first, and most starts end there. Otherwise the line is fetched while the
           bounds are computed and the leads ordered. */
        Entry *e = NULL;
        if (pre) {
            key = *pre;
            e = tt_find(&key);
            if (e) {
                if (e->low >= beta || e->low == e->high) return e->low;
                if (e->high <= alpha) return e->high;
            }
        } else {
            make_key(st, &key);
        }
        int sure[2];
        sure_points(st, sure);
        if (sure[0] >= beta) return sure[0];
        if (remaining - sure[1] <= alpha) return remaining - sure[1];
        keyed = 1;
        /* the table's best lead is moved to the front of the ordered leads here, the
           killer lead in front of it below (the killer first: 5 % fewer nodes) */
        n = gen_moves(st, player, legal_of(st, player), moves, 1);
        if (!pre) {
            e = tt_find(&key);
            if (e) {
                if (e->low >= beta || e->low == e->high) return e->low;
                if (e->high <= alpha) return e->high;
            }
        }
        if (e) {
            if (e->low > alpha) alpha = e->low;
            if (e->high < beta) beta = e->high;
            if (e->best) move_to_front(moves, n, denormalize(st, e->best - 1));
        }
    } else if (st->ntrick == 3 && popcount(st->hand[player]) > 3) {
        /* The last seat of a trick: the keys of the next trick's starts first, their
           lines prefetched while this seat's cards are ordered; none for a start the
           window already settles (its side cannot reach alpha, or beta is reached),
           which returns before its key is used. A card whose start settles the window
           in this seat's favour ends the search at once, with the value that start
           would return. */
        Key base;
        key_masks(st->hand, &base);
        int played = 1 + card_points[st->trick[0]] + card_points[st->trick[1]] +
                     card_points[st->trick[2]];
        for (uint64_t m = legal; m; m &= m - 1) {
            int bit = lowbit(m);
            int leader = (st->leader + winner_after(st, bit)) & 3;
            int points = played + card_points[bit];
            int gain = (leader & 1) ? 0 : points;
            if (st->remaining - points <= alpha - gain) {
                if (!maximizing) return gain + st->remaining - points;
                continue;
            }
            if (beta - gain <= 0) {
                if (maximizing) return gain;
                continue;
            }
            key_masks_without(&base, st->hand, bit, &keys[nkeys]);
            finish_key(&keys[nkeys], leader, st->config);
            key_gain[nkeys] = gain;
            key_bits[nkeys++] = bit;
        }
        n = gen_moves(st, player, legal, moves, 1);
        /* Enhanced transposition cutoff: a next trick's start whose stored bound already
           settles the window ends this seat's search before any card is played (the
           entries' lines were prefetched above, while the cards were ordered). */
        for (int k = 0; k < nkeys; k++) {
            const Entry *e = tt_find(&keys[k]);
            if (e == NULL) continue;
            if (maximizing) {
                if (key_gain[k] + e->low >= beta) return key_gain[k] + e->low;
            } else if (key_gain[k] + e->high <= alpha) {
                return key_gain[k] + e->high;
            }
        }
    } else {
        n = gen_moves(st, player, legal, moves, 1);
    }
    int8_t *killer = st->ntrick ? reply_killer_of(st, player)
                                : &lead_killer[popcount(st->hand[st->leader])][player][st->prev];
    if (*killer >= 0) move_to_front(moves, n, *killer);
    int alpha0 = alpha, beta0 = beta;
    int best = maximizing ? -1000 : 1000;
    int best_bit = -1;
    for (int i = 0; i < n; i++) {
        const Key *pre = NULL;
        for (int k = 0; k < nkeys; k++)
            if (key_bits[k] == moves[i].bit) pre = &keys[k];
        int value = play_and_search_key(st, moves[i].bit, alpha, beta, pre);
        if (maximizing) {
            if (value > best) {
                best = value;
                best_bit = moves[i].bit;
                if (value > alpha) alpha = value;
            }
        } else if (value < best) {
            best = value;
            best_bit = moves[i].bit;
            if (value < beta) beta = value;
        }
        if (alpha >= beta) {
            if (st->ntrick == 0)
                history[st->trump][player][moves[i].bit] += 1u << popcount(st->hand[st->leader]);
            *killer = (int8_t)moves[i].bit;
            break;
        }
    }
    if (keyed) {
        int low = 0, high = st->remaining;
        if (best <= alpha0) high = best;
        else if (best >= beta0) low = best;
        else low = high = best;
        tt_store(&key, popcount(st->hand[st->leader]), low, high,
                 best_bit >= 0 ? normalized_bit(st, best_bit) : -1);
    }
    return best;
}

/* The value of the position for the window (alpha, beta), fail-soft. Inside a trick, a
   seat with one legal card plays it at once: no ordering, no keys, no history. */
static inline int search_key(State *st, int alpha, int beta, const Key *pre) {
    if (st->ntrick == 0) return search_node(st, alpha, beta, pre, 0);
    uint64_t legal = legal_of(st, (st->leader + st->ntrick) & 3);
    if (legal & (legal - 1)) return search_node(st, alpha, beta, pre, legal);
    st->nodes++;
    return play_and_search_key(st, lowbit(legal), alpha, beta, NULL);
}

/* A first guess of the value: the hand played out with every seat's first card of the
   move ordering. */
static int greedy(State *st) {
    State g = *st;
    int total = 0;
    while (g.hand[(g.leader + g.ntrick) & 3]) {
        int player = (g.leader + g.ntrick) & 3;
        Move moves[12];
        gen_moves(&g, player, legal_of(&g, player), moves, 1);
        int bit = moves[0].bit;
        g.win = winner_after(&g, bit);
        g.hand[player] &= ~(1ULL << bit);
        g.trick[g.ntrick++] = bit;
        if (g.ntrick == 4) {
            int winner = (g.leader + g.win) & 3;
            int points = trick_points(&g);
            if (!(winner & 1)) total += points;
            g.ntrick = 0; g.leader = winner; g.win = 0;
        }
    }
    return total;
}

/* The value by null-window searches (MTD(f)), each answering "do NS take at least
   beta?", with the table's bounds kept between them: the first at the greedy guess, then
   one point on from each answer in the direction it went (its fail-soft value may go
   further) until the two bounds meet. A search far from the value is cheap and one near
   it dear, and steps of one never overshoot it: on boards 1-20 (before the killer cards),
   404 M nodes against 416 M for steps of 1, 1, 1, 2, 4... and for galloping 1, 2, 4...
   with bisection. */
static int mtdf(State *st) {
    age_history();
    int low = 0, high = st->remaining;
    int beta = greedy(st);
    while (low < high) {
        if (beta <= low) beta = low + 1;
        if (beta > high) beta = high;
        int g = search(st, beta - 1, beta);
        if (g < beta) {
            high = g;
            beta = g;
        } else {
            low = g;
            beta = g + 1;
        }
    }
    return low;
}

/* ------------------------------------------------------------------ Python glue */

static long long last_nodes = 0;

static int parse_position(PyObject *args, State *st) {
    PyObject *hands_obj, *trick_obj;
    int leader, trump, flags;
    if (!PyArg_ParseTuple(args, "OiOii", &hands_obj, &leader, &trick_obj, &trump, &flags))
        return -1;
    PyObject *hands = PySequence_Fast(hands_obj, "hands must be a sequence of 4 masks");
    if (!hands) return -1;
    if (PySequence_Fast_GET_SIZE(hands) != 4) {
        Py_DECREF(hands);
        PyErr_SetString(PyExc_ValueError, "hands must hold 4 masks");
        return -1;
    }
    uint64_t seen = 0;
    for (int p = 0; p < 4; p++) {
        unsigned long long m = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(hands, p));
        if (PyErr_Occurred()) { Py_DECREF(hands); return -1; }
        if ((m & ~ALL48) || (m & seen)) {
            Py_DECREF(hands);
            PyErr_SetString(PyExc_ValueError, "hand masks must be disjoint 48-bit masks");
            return -1;
        }
        seen |= m;
        st->hand[p] = m;
    }
    Py_DECREF(hands);
    if (leader < 0 || leader > 3 || trump < 0 || trump > 4 || flags < 0 || flags > 7) {
        PyErr_SetString(PyExc_ValueError, "leader 0..3, trump 0..4, flags 0..7");
        return -1;
    }
    PyObject *trick = PySequence_Fast(trick_obj, "trick must be a sequence of card bits");
    if (!trick) return -1;
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(trick);
    if (nt > 3) {
        Py_DECREF(trick);
        PyErr_SetString(PyExc_ValueError, "at most 3 cards on the table");
        return -1;
    }
    st->trump = trump;
    st->flags = flags;
    st->leader = leader;
    st->ntrick = 0;
    st->win = 0;
    for (Py_ssize_t i = 0; i < nt; i++) {
        long b = PyLong_AsLong(PySequence_Fast_GET_ITEM(trick, i));
        if (PyErr_Occurred()) { Py_DECREF(trick); return -1; }
        if (b < 0 || b >= 48 || (seen >> b) & 1) {
            Py_DECREF(trick);
            PyErr_SetString(PyExc_ValueError, "trick cards must be bits 0..47 not in a hand");
            return -1;
        }
        seen |= 1ULL << b;
        st->win = winner_after(st, (int)b);
        st->trick[st->ntrick++] = (int)b;
    }
    Py_DECREF(trick);
    int n = popcount(st->hand[leader]) + (nt > 0 ? 1 : 0);
    for (int k = 0; k < 4; k++) {
        int p = (leader + k) & 3;
        int expect = n - (k < nt ? 1 : 0);
        if (popcount(st->hand[p]) != expect || n < 1 || n > 12) {
            PyErr_SetString(PyExc_ValueError, "hands of unequal lengths for this trick");
            return -1;
        }
    }
    int remaining = n;
    for (uint64_t m = seen; m; m &= m - 1) remaining += card_points[lowbit(m)];
    st->remaining = remaining;
    st->config = (uint8_t)(trump * 8 + flags);
    st->prev = PREV_NONE;
    st->nodes = 0;
    current_age++;
    if (table == NULL) {
        /* 2 MB aligned (huge pages where the system gives them: fewer TLB misses) */
        size_t align = 2u << 20, size = (size_t)TT_SIZE * sizeof(Entry);
        table_memory = malloc(size + align);
        if (table_memory == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        table = (Entry *)(((uintptr_t)table_memory + align - 1) & ~(uintptr_t)(align - 1));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(table, size, MADV_HUGEPAGE);
#endif
        memset(table, 0, size);
    }
    return 0;
}

static PyObject *dd_solve(PyObject *self, PyObject *args) {
    State st;
    if (parse_position(args, &st) < 0) return NULL;
    int value = mtdf(&st);
    last_nodes = st.nodes;
    return PyLong_FromLong(value);
}

static PyObject *dd_best(PyObject *self, PyObject *args) {
    State st;
    if (parse_position(args, &st) < 0) return NULL;
    int value = mtdf(&st);
    int player = (st.leader + st.ntrick) & 3;
    int maximizing = !(player & 1);
    Move moves[12];
    int n = gen_moves(&st, player, legal_of(&st, player), moves, 0);
    int chosen = -1;
    for (int i = 0; i < n && chosen < 0; i++) {
        int v = maximizing ? play_and_search(&st, moves[i].bit, value - 1, value)
                           : play_and_search(&st, moves[i].bit, value, value + 1);
        if (maximizing ? v >= value : v <= value) chosen = moves[i].bit;
    }
    last_nodes = st.nodes;
    if (chosen < 0) {
        PyErr_SetString(PyExc_RuntimeError, "no card reaches the value");
        return NULL;
    }
    return Py_BuildValue("ii", value, chosen);
}

static PyObject *dd_legal(PyObject *self, PyObject *args) {
    unsigned long long hand;
    PyObject *trick_obj;
    int trump, flags;
    if (!PyArg_ParseTuple(args, "KOii", &hand, &trick_obj, &trump, &flags)) return NULL;
    if (trump < 0 || trump > 4) {
        PyErr_SetString(PyExc_ValueError, "trump 0..4");
        return NULL;
    }
    PyObject *trick = PySequence_Fast(trick_obj, "trick must be a sequence of card bits");
    if (!trick) return NULL;
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(trick);
    if (nt > 3) {
        Py_DECREF(trick);
        PyErr_SetString(PyExc_ValueError, "at most 3 cards on the table");
        return NULL;
    }
    State st;
    memset(&st, 0, sizeof(st));
    st.trump = trump;
    for (Py_ssize_t i = 0; i < nt; i++) {
        long b = PyLong_AsLong(PySequence_Fast_GET_ITEM(trick, i));
        if (b < 0 || b >= 48) {
            Py_DECREF(trick);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "card bits are 0..47");
            return NULL;
        }
        st.win = winner_after(&st, (int)b);
        st.trick[st.ntrick++] = (int)b;
    }
    Py_DECREF(trick);
    uint64_t legal = legal_moves(hand & ALL48, st.trick, st.ntrick, st.win, trump, flags);
    return PyLong_FromUnsignedLongLong(legal);
}

static PyObject *dd_nodes(PyObject *self, PyObject *noargs) {
    return PyLong_FromLongLong(last_nodes);
}

static PyObject *dd_clear(PyObject *self, PyObject *noargs) {
    if (table) memset(table, 0, TT_SIZE * sizeof(Entry));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"solve", dd_solve, METH_VARARGS,
     "solve(hands, leader, trick, trump, flags) -> NS points from the current trick on."},
    {"best", dd_best, METH_VARARGS,
     "best(hands, leader, trick, trump, flags) -> (value, bit of an optimal card)."},
    {"legal", dd_legal, METH_VARARGS,
     "legal(hand, trick, trump, flags) -> mask of the legal cards."},
    {"nodes", dd_nodes, METH_NOARGS, "nodes() -> nodes searched by the last call."},
    {"clear", dd_clear, METH_NOARGS, "clear() -> empty the transposition table."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "engine._ddcore",
    "Compiled double-dummy solver of Botifarra (see engine.dd).", -1, methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__ddcore(void) {
    static const int by_strength[12] = {0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5};
    for (int b = 0; b < 48; b++) {
        card_points[b] = by_strength[b % 12];
        suit_table[b] = (uint8_t)(b / 12);
        above_table[b] = SUIT_MASK[b / 12] & ~((2ULL << b) - 1);
    }
    init_compress();
    return PyModule_Create(&moduledef);
}
