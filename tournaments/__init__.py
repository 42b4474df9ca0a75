"""The Django app: championships, pairs, rounds, tables, boards, results, reports."""
