"""The short form of a player's name (the boards, the hall, the standings) and the
folding "find my pair" matches with: pure functions, no database."""

from __future__ import annotations

import pytest

from tournaments.selectors.names import fold, short_name


@pytest.mark.parametrize(("name", "short"), [
    # the examples of docs/decisions.md
    ("Josep Maria Vilaseca", "J. M. Vilaseca"),
    ("Maria Dolors Serra", "M. D. Serra"),
    ("Núria de la Fuente", "N. de la Fuente"),
    ("Mª Àngels Puig", "M. À. Puig"),
    ("Jordi Vila Puig", "J. Vila"),
    # compound given names, Catalan
    ("Joan Carles Puig Ferrer", "J. C. Puig"),
    ("Josep Lluís Sala", "J. L. Sala"),
    ("Anna Maria Vidal Roca", "A. M. Vidal"),
    ("Maria Teresa Soler", "M. T. Soler"),
    ("Maria Rosa Puigdomènech", "M. R. Puigdomènech"),
    ("Maria Montserrat Casals i Vives", "M. M. Casals"),
    ("Maria del Carme Puig", "M. C. Puig"),
    ("Maria de la Mercè Riera Bosch", "M. M. Riera"),
    ("Maria dels Àngels Pujol", "M. À. Pujol"),
    ("Joan Miquel Sala Puig", "J. M. Sala"),
    ("Francesc Xavier Roig", "F. X. Roig"),
    ("Maria Eulàlia Comas", "M. E. Comas"),
    ("Maria Aurèlia Capmany", "M. A. Capmany"),
    ("Isabel Clara Simó", "I. C. Simó"),
    ("Joan Manuel Serrat Teresa", "J. M. Serrat"),
    ("Rosa Maria Sardà", "R. M. Sardà"),
    ("Miquel Martí i Pol", "M. Martí"),
    ("Mercè Rodoreda i Gurguí", "M. Rodoreda"),
    ("Josep Antoni Duran i Lleida", "J. A. Duran"),
    # compound given names, Spanish
    ("José Luis Rodríguez Zapatero", "J. L. Rodríguez"),
    ("María José García López", "M. J. García"),
    ("Juan Antonio Samaranch", "J. A. Samaranch"),
    ("Juan Carlos Pérez", "J. C. Pérez"),
    ("María del Pilar Gómez", "M. P. Gómez"),
    ("María de los Ángeles Martín Sánchez", "M. Á. Martín"),
    ("Mari Carmen Ruiz", "M. C. Ruiz"),
    ("José Manuel Fernández Díaz", "J. M. Fernández"),
    ("Ana Isabel Moreno Gil", "A. I. Moreno"),
    ("Francisco Javier Navarro", "F. J. Navarro"),
    ("María Jesús Iglesias", "M. J. Iglesias"),
    ("Juan Ramón Jiménez", "J. R. Jiménez"),
    ("Miguel Ángel Blanco", "M. Á. Blanco"),
    ("Francisco de Goya y Lucientes", "F. de Goya"),
    # a given name that is a surname as often: given only before two surnames
    ("Antoni Miquel Sala", "A. Miquel"),
    ("Jordi Martí Puig", "J. Martí"),
    ("Pere Joan Serra", "P. Joan"),
    ("Joan Andreu Vila Puig", "J. A. Vila"),
    ("Carles Andreu", "C. Andreu"),
    # particles kept with the first surname, the second surname dropped
    ("Pere Garcia de la Torre", "P. Garcia"),
    ("Jordi Vila i Puig", "J. Vila"),
    ("Luis García y Pérez", "L. García"),
    ("Anna de Puig", "A. de Puig"),
    ("Marc del Pino Ruiz", "M. del Pino"),
    ("Montse de les Heures", "M. de les Heures"),
    ("Carla dels Prats Vila", "C. dels Prats"),
    ("Maria del Pino", "M. del Pino"),
    # apostrophes
    ("Anna d'Anglada", "A. d'Anglada"),
    ("Oriol d’Ors Puig", "O. d’Ors"),
    ("Jaume D'Anglada Soler", "J. D'Anglada"),
    ("Rosa d' Anglada", "R. d'Anglada"),
    # the ordinal of Maria
    ("M.ª Carmen López", "M. C. López"),
    ("Mª. Teresa Vila", "M. T. Vila"),
    ("M.a Dolors Bas", "M. D. Bas"),
    # accents and hyphens
    ("Àngel Guimerà", "À. Guimerà"),
    ("Íñigo Núñez", "Í. Núñez"),
    ("Jean-Pierre Rovira", "J.-P. Rovira"),
    ("Anna Puig-Serra Vidal", "A. Puig-Serra"),
    ("Joan-Ramon Bosch", "J.-R. Bosch"),
    # single names, initials already typed, extra spaces, lowercase, capitals
    ("Núria", "Núria"),
    ("  ", ""),
    ("Vilaseca", "Vilaseca"),
    ("Montse Puigdomènech", "M. Puigdomènech"),
    ("J. M. Vilaseca", "J. M. Vilaseca"),
    ("J.M. Vilaseca", "J. M. Vilaseca"),
    ("  Josep   Maria    Vilaseca  ", "J. M. Vilaseca"),
    ("josep maria vilaseca", "J. M. Vilaseca"),
    ("núria de la fuente", "N. de la Fuente"),
    ("anna d'anglada", "A. d'Anglada"),
    ("JORDI VILA PUIG", "J. Vila"),
    ("MARIA DEL CARME PUIG", "M. C. Puig"),
    ("joan puig-serra", "J. Puig-Serra"),
    ("Josep Maria", "J. Maria"),
    ("Ma Long", "M. Long"),
])
def test_short_name_keeps_the_first_surname_and_the_given_names_initials(name, short):
    assert short_name(name) == short


@pytest.mark.parametrize(("text", "folded"), [
    ("Puigdomènech", "puigdomenech"),
    ("MONTSE", "montse"),
    ("Àngels Núñez", "angels nunez"),
    ("Çà", "ca"),
])
def test_fold_drops_case_and_accents(text, folded):
    assert fold(text) == folded
