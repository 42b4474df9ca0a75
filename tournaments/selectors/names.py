"""A player's name as the boards and screens show it short: the given names as initials
and the first surname kept whole ("Josep Maria Vilaseca" -> "J. M. Vilaseca", "Jordi
Vila Puig" -> "J. Vila"), and the folding "find my pair" matches names with.

Pure: no Django, no database. Catalan and Spanish names carry two surnames and often a
compound given name, and nothing in the text says where one ends: the rule is a list of
given names that people carry as the second part of a compound name (Josep *Maria*, Maria
*Dolors*, Juan *Antonio*), the particles that belong to the surname after them (de, del,
de la, d'...), and the few names that are surnames as often as given names (Martí,
Miquel, Andreu), which count as given only when two surnames still follow
(docs/decisions.md, "Short names").
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["fold", "short_name"]


def fold(text: str) -> str:
    """``text`` lowercased without accents, for matching what people type.

    >>> fold("Puigdomènech"), fold("ÀNGELS"), fold("Nuñez")
    ('puigdomenech', 'angels', 'nunez')
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


#: Words that belong to the surname after them ("de la Fuente", "d'Anglada"), or join
#: the two surnames ("Vila i Puig", "García y Pérez"): lowercase, folded.
PARTICLES = frozenset({
    "i", "y", "de", "del", "dels", "la", "les", "las", "los", "el", "d'", "d’",
})

#: Given names people carry as the second part of a compound given name (folded).
SECOND_GIVEN = frozenset({
    # Catalan
    "maria", "josep", "dolors", "carles", "lluis", "lluisa", "antoni", "antonia",
    "angels", "angel", "teresa", "isabel", "eulalia", "merce", "assumpcio", "concepcio",
    "immaculada", "eugenia", "magdalena", "victoria", "gloria", "carme", "pilar",
    "cristina", "elena", "francesc", "xavier", "ignasi", "enric", "manel", "rosa",
    "montserrat", "nuria", "neus", "roser", "alba", "laia", "mar", "lourdes", "rosario",
    "dolores", "elisabet", "esther", "jesus", "ramona", "jordi", "albert", "oriol",
    "anna", "francesca", "josefa", "ester", "cinta", "remei", "lidia", "marta",
    # Spanish
    "jose", "luis", "luisa", "antonio", "angeles", "carlos", "manuel", "francisco",
    "javier", "ignacio", "carmen", "mercedes", "concepcion", "asuncion", "inmaculada",
    "alberto", "eduardo", "fernando", "felipe", "pablo", "pedro", "rafael",
    "alfonso", "emilio", "agustin", "enrique", "ana", "cruz", "luz", "eugenio", "ramon",
    "juan", "joan", "miguel", "gabriel", "david",
    "daniel", "alejandro", "victor", "mariano", "cristobal", "rocio", "consuelo",
    "soledad", "amparo", "nieves", "paz", "belen", "sol", "reyes", "milagros",
    "aurelia", "clara", "llum", "ines", "elisa", "elvira", "josefina", "margarida",
    "margarita", "patricia", "paula", "raquel", "rita", "sara", "silvia", "sonia",
    "susana", "trinidad", "trinitat", "virginia", "yolanda", "carolina", "beatriz",
    "beatriu", "eva", "lucia", "alicia", "amalia", "aurora", "cecilia", "encarnacion",
    "encarna", "estrella", "gemma", "irene", "laura", "manuela", "mireia", "noemi",
    "olga", "sofia", "antonieta", "agusti", "alfons", "amadeu", "artur", "emili",
    "ernest", "eusebi", "felix", "frederic", "isidre", "jacint", "joaquim",
    "joaquin", "narcis", "octavi", "ricard", "sergi", "eloi", "adria", "arnau", "damia",
    "eduard", "fermin", "ivan", "joel", "julio", "mario", "oscar", "ruben",
    # both
    "marti", "miquel", "andreu", "pau", "bernat", "jaume", "pere", "marc", "vicenc",
    "vicente", "esteve", "tomas", "salvador", "llorenc", "andres", "martin", "pascual",
    "pasqual", "ferran", "lorenzo", "mateu", "mateo", "sebastia", "sebastian", "simo",
    "simon", "gaspar", "guillem", "benito", "gil", "roman", "nicolau", "bartomeu",
})

#: Of :data:`SECOND_GIVEN`, the names that are common surnames too ("Jordi Martí",
#: "Pere Joan"): after a first given name they count as given only when two surnames
#: follow ("Joan Miquel Sala Puig" -> "J. M. Sala", "Antoni Miquel Sala" -> "A. Miquel").
SURNAME_TOO = frozenset({
    "marti", "miquel", "andreu", "pau", "bernat", "jaume", "pere", "marc", "vicenc",
    "vicente", "esteve", "tomas", "salvador", "llorenc", "andres", "martin", "pascual",
    "pasqual", "ferran", "lorenzo", "mateu", "mateo", "sebastia", "sebastian", "simo",
    "simon", "gaspar", "guillem", "benito", "gil", "roman", "nicolau", "bartomeu",
    "joan", "juan", "jordi", "albert", "oriol", "rosa", "montserrat", "cruz",
    "paz", "sol", "reyes", "miguel", "gabriel", "david", "daniel", "victor", "alba",
    "mar", "luz", "rafael", "roser", "anna", "marta", "isabel", "pilar",
    "felipe", "francesc", "manuel", "ester", "esther",
})

#: First given names that open a compound so often that a name of :data:`SURNAME_TOO`
#: after them is given when one surname follows ("Maria Rosa Puig" -> "M. R. Puig").
COMPOUND_FIRST = frozenset({"maria", "mari", "ana", "anna", "josep", "jose"})

#: Given names that follow a particle in a compound given name, after "Maria"
#: ("Maria del Carme", "María de los Ángeles", "Maria de la Mercè").
AFTER_PARTICLE = frozenset({
    "carme", "carmen", "mar", "pilar", "rosario", "rosari", "merce", "mercedes",
    "angels", "angeles", "roser", "montserrat", "consol", "consuelo", "rocio", "sol",
    "pino", "remei", "remedios", "dolors", "dolores", "socors", "socorro", "lourdes",
    "luz", "nieves", "neus", "amparo", "empar", "cinta", "asuncion", "assumpcio",
    "olvido", "milagros", "valle", "camino", "gracia", "salut", "salud", "paz", "jesus",
    "cruz", "rosa", "alba", "esperanza", "esperança", "fatima", "candelaria",
})

#: "Mª", "M.ª", "Mª.", "M.a", "Ma.": the ordinal abbreviation of Maria.
_MARIA = re.compile(r"^[Mm](?:\.?[ªº]\.?|\.a\.?|a\.)$")
#: Initials typed as such: "J.", "J.M.", "J.-M.".
_INITIALS = re.compile(r"^(?:\w\.-?)+$")


def _recased(word: str) -> str:
    """A word typed all in lowercase or capitals, as a name is written: "puig-ferrer"
    -> "Puig-Ferrer", "d'anglada" -> "d'Anglada"."""
    out: list[str] = []
    start = True
    for c in word.lower():
        out.append(c.upper() if start and c.isalpha() else c)
        start = c in "-'’" or (start and not c.isalpha())
    text = "".join(out)
    if len(text) > 2 and text[0] == "D" and text[1] in "'’":
        text = "d" + text[1:]
    return text


def _initials(word: str) -> str:
    """The initials of a given name: "Àngels" -> "À.", "Jean-Pierre" -> "J.-P.",
    "J.M." -> "J. M."."""
    if _MARIA.match(word):
        return "M."
    if _INITIALS.match(word):
        return " ".join(f"{c.upper()}." for c in word if c.isalpha())
    parts = [p for p in word.split("-") if p]
    return "-".join(f"{next((c for c in p if c.isalpha()), p[0]).upper()}." for p in parts)


def _is_particle(word: str) -> bool:
    return fold(word) in PARTICLES


def _words(name: str) -> list[str]:
    words = unicodedata.normalize("NFC", name).split()
    # "J.M.Vilaseca": initials written onto the surname.
    split: list[str] = []
    for word in words:
        match = re.match(r"^((?:\w\.)+)(\w[\w'’-]+)$", word)
        split.extend(match.groups() if match and not _MARIA.match(word) else (word,))
    shouting = name.isupper()
    return [
        _recased(w) if (w.islower() or shouting) and not _is_particle(w) else
        w.lower() if shouting else w
        for w in split
    ]


def _surnames_after(words: list[str], start: int) -> int:
    """How many surnames (words not particles) there are from ``start`` on."""
    return sum(1 for w in words[start:] if not _is_particle(w))


def short_name(name: str) -> str:
    """A player's name short, for the boards and screens: each given name as its
    initial and the first surname whole with its particles; the second surname goes.

    >>> short_name("Jordi Vila Puig"), short_name("Josep Maria Vilaseca")
    ('J. Vila', 'J. M. Vilaseca')
    >>> short_name("Núria de la Fuente"), short_name("Mª Àngels Puig")
    ('N. de la Fuente', 'M. À. Puig')
    >>> short_name("maria del carme  puig i ferrer"), short_name("Anna d'Anglada")
    ('M. C. Puig', "A. d'Anglada")
    >>> short_name("Núria"), short_name("  ")
    ('Núria', '')

    A name written "Surname, Given names", as lists sorted by surname write it, is read
    the other way round; particles at the end of the given names go with the surname:

    >>> short_name("Vilaseca, Josep Maria"), short_name("Fuente, Núria de la")
    ('J. M. Vilaseca', 'N. de la Fuente')
    """
    surnames, comma, given_names = name.partition(",")
    if comma and surnames.strip() and given_names.strip() and "," not in given_names:
        name = f"{given_names} {surnames}"
    words = _words(name)
    if len(words) < 2:
        return " ".join(words)
    given = [words[0]]
    first = fold(words[0])
    maria_first = first in COMPOUND_FIRST or bool(_MARIA.match(words[0]))
    i = 1
    while i < len(words):
        key = fold(words[i])
        if key in SECOND_GIVEN or _MARIA.match(words[i]) or _INITIALS.match(words[i]):
            after = _surnames_after(words, i + 1)
            if _MARIA.match(words[i]) or _INITIALS.match(words[i]) or (
                after >= 1 and (key not in SURNAME_TOO or after >= 2 or (
                    maria_first and len(given) == 1 and key in AFTER_PARTICLE | {"montserrat"}
                ))
            ):
                given.append(words[i])
                i += 1
                continue
            break
        if maria_first and _is_particle(words[i]):
            j = i
            while j < len(words) and _is_particle(words[j]) and fold(words[j]) not in ("i", "y"):
                j += 1
            if j < len(words) and j > i and fold(words[j]) in AFTER_PARTICLE \
                    and _surnames_after(words, j + 1) >= 1:
                given.append(words[j])
                i = j + 1
                continue
        break
    rest = words[i:]
    surname: list[str] = []
    for word in rest:
        surname.append(word)
        if not _is_particle(word):
            break
    # A surname of particles alone ("Joan de"), or no surname: the name as typed.
    if not surname or _is_particle(surname[-1]):
        return " ".join(words)
    if len(surname) > 1 and fold(surname[0]) in ("i", "y"):
        surname = surname[1:]
    initials = " ".join(_initials(w) for w in given)
    joined = " ".join(surname)
    # "d' Anglada" typed apart is written as one word.
    joined = re.sub(r"(?i)\b(d['’]) ", r"\1", joined)
    return f"{initials} {joined}"
