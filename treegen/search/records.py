"""The record of an opening's classes: a JSON file with each class of a first guess, its floor
and, once proven, its optimal cost, its tree and the certificate that proves no tree does better
(see :mod:`treegen.search.classes`).

A record travels between machines and is the proof of published results, so nothing in it is
taken on trust: on reading, the classes and their floors are derived again from the game and the
opening, each solved class's tree is replayed secret by secret with the plain scorer (its cost is
what the tree needs, and must be what the record says), each certificate is checked by the
independent checker (:mod:`treegen.files.checked`) against the class it speaks of, and every total
is summed again. A class's cost counts as its bound only with its certificate: without one (not
written, or not copied along) its tree shows only that the class needs no more.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import numpy as np

from treegen.book.format import answer_key
from treegen.book.replay import game_codes, replay
from treegen.certificate import Proven
from treegen.data import Node
from treegen.errors import CertificateError, ImpossibleError, RecordError, TreegenError
from treegen.notation import game_slug
from treegen.player import brief, check_game, check_tree, parse_json, read_text
from treegen.rules.game import Game
from treegen.search.bounds import INFEASIBLE, UNLIMITED
from treegen.search.exact import Search
from treegen.search.facts import fact_place, facts_folder
from treegen.search.options import SearchOptions, effective_depth
from treegen.version import __version__

__all__ = ["FORMAT", "VERSION", "Record", "RecordError", "check_facts", "class_costs", "fresh",
           "load_record", "merge", "read", "record_name", "record_table", "record_text", "totals"]

FORMAT, VERSION = "treegen-classes", 4
#: Versions read: 2 wrote no certificates (its classes are upper bounds only until certified);
#: 3 kept facts one step below a class only (4 adds a fact's steps ``after`` the class, and the
#: ``guess`` of a class whose optimum ``at_least`` was found and proven, its tree still to make).
READABLE = (2, 3, 4)
#: What a class of a record file holds; ``certified`` is derived on reading, never written.
CLASS_KEYS = ("feedback", "secrets", "floor", "cost", "at_least", "guess", "seconds", "tree",
              "certificate", "facts")

Record = dict[str, Any]


def record_name(game: Game, first: str) -> str:
    """The default file of an opening's record, after the book's naming."""
    return f"{game_slug(game.to_dict())}-first{first}-classes.json"


def fresh(game: Game, first: str, max_depth: int | None, search: Search) -> Record:
    """A record with nothing solved: every class with its size and floor (its best one-step
    bound), derived from the game and the opening alone."""
    guess = game.index(first)
    depth = UNLIMITED if search.max_depth is None else search.max_depth
    everything = np.arange(game.size, dtype=np.int64)
    _, _, widest = search.kernels.guess_bounds(search.context, search.guesses(everything, ()),
                                               everything, depth)
    classes = search.classes(guess, everything, (), depth, widest, INFEASIBLE - 1)
    if classes is None or any(floor >= INFEASIBLE for _, _, floor, _ in classes):
        raise ImpossibleError(f"impossible: no strategy solves every {game.title} secret in at "
                              f"most {max_depth} guesses opening with {first}")
    entries = [{"feedback": game.feedback_texts[child[-1][1]], "secrets": len(sub), "floor": floor}
               for sub, child, floor, _ in classes]
    record = {"format": FORMAT, "version": VERSION, "treegen": __version__,
              "game": dict(game.to_dict()), "first": first, "max_depth": max_depth,
              "secrets": game.size, "classes": entries}
    totals(record)
    return record


def class_bound(entry: Mapping[str, Any]) -> int:
    """The least a class can cost, as proven: its certified cost once solved, else the larger of
    its floor and what a certified budgeted search showed (``at_least``)."""
    if not entry.get("certified"):
        return int(entry["floor"])
    if "cost" in entry:
        return int(entry["cost"])
    return max(int(entry["floor"]), int(entry.get("at_least", 0)))


def totals(record: Record) -> None:
    """The record's summary: classes solved (and of those, certified), and the optimum after the
    opening bracketed from below (certified costs where known, floors elsewhere) or known."""
    entries = record["classes"]
    solved = [e for e in entries if "cost" in e]
    record["solved"] = len(solved)
    record["certified"] = sum(1 for e in entries if e.get("certified"))
    record["lower_bound"] = record["secrets"] + sum(class_bound(e) for e in entries)
    proven = all("cost" in e and e.get("certified") for e in entries)
    record["total"] = record["lower_bound"] if proven else None


# -- reading --------------------------------------------------------------------------------------

def load_record(path: str | os.PathLike[str], memory: int | None = None,
                elsewhere: Mapping[str, int] | None = None,
                told: Callable[[str, float], None] | None = None, jobs: int = 1,
                facts: bool = False) -> Record:
    """A record written by :func:`solve_classes`, checked as the module says; anything wrong is a
    one-line RecordError. ``elsewhere`` names certificates checked where they were written (their
    SHA-256 and the bound each proved): a class whose certificate is named there, and is absent
    from this copy or is that very file, counts as certified without a check here, and says so
    (``checked_here`` false). ``told`` hears the path and seconds of each certificate file
    checked here (premises first): a record's check can take hours; ``jobs`` processes check
    them (premises side by side, a certificate's claims shared). With ``facts``, the facts of
    the classes not certified are checked as well (:func:`check_facts`)."""
    path = os.fspath(path)
    data = read(path)
    try:
        game = Game.from_dict(data["game"])
        first = game.validate_code(data.get("first"))  # type: ignore[arg-type]
        max_depth = data.get("max_depth")
        SearchOptions(max_depth=max_depth)  # checked as any depth limit
    except TreegenError as exc:
        raise RecordError(f"{path} is not a usable record of classes: {exc}") from None
    search = Search(game, effective_depth(game, max_depth), None, memory)
    record = merge(fresh(game, first, max_depth, search), data, path)
    certify_entries(record, path, elsewhere, told=told, jobs=jobs)
    if facts:
        check_facts(record, path, told=told, jobs=jobs)
    return record


def certificate_folder(path: str) -> str:
    """Where a record's certificates are kept: a folder beside it."""
    stem = path[:-len(".json")] if path.endswith(".json") else path
    return stem + ".certificates"


def certificate_name(feedback: str) -> str:
    """The file of a class's certificate in that folder, named by its answer."""
    return feedback.replace(".", "_") + ".cert"


def certify_entries(record: Record, path: str, elsewhere: Mapping[str, int] | None = None,
                    found: bool = True, check: bool = True,
                    told: Callable[[str, float], None] | None = None, jobs: int = 1) -> None:
    """Mark each class whose certificate is present and proves what the class says, or is named
    in ``elsewhere`` (see :func:`load_record`): absent, or present as that very file; a
    certificate that is checked and proves anything else makes the record unusable. Without
    ``found``, a class found and proven whose tree is still to make is left unchecked (a campaign
    checks it once the tree is made). Without ``check``, none is checked here (those ``elsewhere``
    names still count). ``jobs``: the processes of each check."""
    from treegen.files.checked import check_certificate, sha256_of
    folder = os.path.dirname(os.path.abspath(path))
    record["folder"] = folder  # where its certificates are, for whoever combines records
    for entry in record["classes"]:
        entry.pop("certified", None)
        entry.pop("checked_here", None)
        ref = entry.get("certificate")
        if ref is None or not ("cost" in entry or "at_least" in entry) or \
                ("guess" in entry and not found):
            continue
        claimed = entry["cost"] if "cost" in entry else entry["at_least"]
        where = os.path.join(folder, *ref["file"].split("/"))
        named = elsewhere is not None and elsewhere.get(ref["sha256"], -1) >= claimed
        if not os.path.lexists(where):
            if named:
                entry.update(certified=True, checked_here=False)
            continue  # not here: the class's cost is an upper bound only
        if named and sha256_of(where) == ref["sha256"]:
            entry.update(certified=True, checked_here=False)  # checked where it was written
            continue
        if not check:
            continue
        try:
            proven = check_certificate(where, jobs=jobs, told=told)
        except CertificateError as exc:
            raise RecordError(f"{path}: class {entry['feedback']}: {exc}") from None
        if not _proves(proven, record, [[record["first"], entry["feedback"]]], claimed):
            raise RecordError(f"{path}: class {entry['feedback']}: its certificate proves another "
                              "claim")
        entry.update(certified=True, checked_here=True)
    totals(record)


def check_facts(record: Record, path: str, told: Callable[[str, float], None] | None = None,
                jobs: int = 1) -> None:
    """Check the certificate of every fact of each class not certified, and count them in its
    entry (``facts_checked``, of those present here): a class's check is mostly its facts', which
    its own certificate names as premises, so a campaign's other core checks them while the
    search goes on, and the checker, remembering each it passed, leaves the class's own claims
    for when it is found. A certificate that fails, or proves less than its fact says, is a
    one-line RecordError (the search would take up a fact nothing proves)."""
    from treegen.files.checked import check_certificate
    for entry in record["classes"]:
        entry.pop("facts_checked", None)
        if entry.get("certified") or not entry.get("facts"):
            continue
        checked = 0
        for fact in entry["facts"]:
            steps = [*fact.get("after", []), fact["step"]]
            where = os.path.join(record["folder"], *fact["certificate"]["file"].split("/"))
            if not os.path.lexists(where):
                continue  # not in this copy: the class's check will say so
            named = f"{path}: class {entry['feedback']}: the fact after " + \
                ", ".join(" → ".join(step) for step in steps)
            try:
                proven = check_certificate(where, jobs=jobs, told=told)
            except CertificateError as exc:
                raise RecordError(f"{named}: {exc}") from None
            if not _proves(proven, record, [[record["first"], entry["feedback"]], *steps],
                           fact["bound"]):
                raise RecordError(f"{named}: its certificate proves another claim than at "
                                  f"least {fact['bound']}")
            checked += 1
        entry["facts_checked"] = checked


def _proves(proven: Proven, record: Record, history: list[list[str]], bound: int) -> bool:
    """Whether a checked certificate proves at least ``bound`` after ``history`` in the record's
    game, under its depth limit: a class's claim, or a fact's below it."""
    return {k: v for k, v in proven.game.items() if k != "name"} == \
        {k: v for k, v in record["game"].items() if k != "name"} and \
        proven.history == history and proven.first is None and \
        proven.max_depth == record["max_depth"] and proven.bound >= bound


#: A file's ``format`` where treegen writes it, first: read from its head, not its whole text
#: (a large book is hundreds of megabytes).
_FORMAT_FIRST = re.compile(rb'\s*\{\s*"format"\s*:\s*"([^"\\]*)"')
#: A file whose format is not first is parsed whole to find it up to this size.
_PARSED_WHOLE = 16 << 20


def is_record(path: str) -> bool:
    """Whether ``path`` says it is a record of classes (its ``format``); :func:`load_record` then
    checks all of it. False for anything unreadable or other than a regular file."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return False
            head = fh.read(4096)
            first = _FORMAT_FIRST.match(head)
            if first is not None:
                return first.group(1) == FORMAT.encode()
            if os.fstat(fd).st_size > _PARSED_WHOLE:
                return False
            data = parse_json((head + fh.read()).decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


def read(path: str) -> dict[str, Any]:
    """The JSON of a record file (a regular file only: a pipe or a device could block or never
    end), with its format and version checked."""
    try:
        data = parse_json(read_text(path))
    except OSError as exc:
        raise RecordError(f"cannot read record {path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise RecordError(f"{path} is not a treegen record of classes (not JSON); choose another "
                          "-o") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{path} is not a treegen record of classes; choose another -o")
    if data.get("version") not in READABLE:
        raise RecordError(f"{path} is a record of classes of another version "
                          f"({brief(data.get('version'))}; this treegen reads versions "
                          f"{', '.join(map(str, READABLE))}, whose classes carry their trees); "
                          "solve its classes again into another file")
    problem = check_game(data.get("game"))
    if problem:
        raise RecordError(f"{path}: game: {problem}")
    return data


def merge(new: Record, old: Mapping[str, Any], path: str) -> Record:
    """``new`` (a record with nothing solved) with the classes ``old`` has solved, each checked
    against its tree; ``old`` must be of the same opening."""
    for key in ("game", "first", "max_depth"):
        if old.get(key) != new[key]:
            raise RecordError(f"{path} records another opening ({key} {brief(old.get(key))}, not "
                              f"{brief(new[key])}); choose another -o")
    entries = old.get("classes")
    if not isinstance(entries, list) or len(entries) != len(new["classes"]):
        raise RecordError(f"{path} is damaged: it does not hold the {len(new['classes'])} "
                          "classes of the opening")
    mine = {e["feedback"]: e for e in new["classes"]}
    seen: set[str] = set()
    codes = game_codes(new["game"])
    for was in entries:
        if not isinstance(was, dict) or not isinstance(was.get("feedback"), str) or \
                was["feedback"] not in mine or was["feedback"] in seen:
            raise RecordError(f"{path} is damaged: {brief(was)} is not a class of the opening")
        seen.add(was["feedback"])
        entry = mine[was["feedback"]]
        if was.get("secrets") != entry["secrets"]:
            raise RecordError(f"{path} is damaged: its class {entry['feedback']} does not have "
                              f"{entry['secrets']} secrets")
        if "cost" in was or "tree" in was:
            problem = _solved_problem(new, entry, was, codes)
            if problem:
                raise RecordError(f"{path}: class {entry['feedback']}: {problem}")
            entry.update(cost=was["cost"], seconds=was["seconds"], tree=was["tree"])
        elif "at_least" in was:
            problem = _bounded_problem(entry, was)
            if problem:
                raise RecordError(f"{path}: class {entry['feedback']}: {problem}")
            entry.update(at_least=was["at_least"], seconds=was["seconds"])
            if "guess" in was:  # the optimum, found and proven: its tree is still to be made
                if not isinstance(was["guess"], str) or was["guess"] not in codes or \
                        "certificate" not in was:
                    raise RecordError(f"{path}: class {entry['feedback']}: guess "
                                      f"{brief(was['guess'])} is not a code of the game with "
                                      "the certificate of the class's optimum")
                entry["guess"] = was["guess"]
        elif "seconds" in was:  # searched in earlier pieces, not solved yet
            if not _is_duration(was["seconds"]):
                raise RecordError(f"{path}: class {entry['feedback']}: seconds "
                                  f"{brief(was['seconds'])} is not a duration")
            entry["seconds"] = was["seconds"]
        if "certificate" in was and ("cost" in entry or "at_least" in entry):
            ref = was["certificate"]
            if not _is_reference(ref):
                raise RecordError(f"{path}: class {entry['feedback']}: its certificate is not "
                                  "named by a file in the record's folder")
            entry["certificate"] = {"file": ref["file"], "sha256": ref["sha256"],
                                    "bytes": ref["bytes"]}
        if "facts" in was:
            problem = _facts_problem(new, entry, was["facts"], path, codes)
            if problem:
                raise RecordError(f"{path}: class {entry['feedback']}: {problem}")
            entry["facts"] = [{"step": list(f["step"]),
                               **({"after": [list(s) for s in f["after"]]} if "after" in f else {}),
                               "bound": f["bound"], "exact": f["exact"],
                               "certificate": {k: f["certificate"][k]
                                               for k in ("file", "sha256", "bytes")},
                               **({"tree": f["tree"]} if "tree" in f else {})}
                              for f in was["facts"]]
    totals(new)
    return new


#: The most facts a class's entry holds (a certificate names at most 100,000 premises).
MOST_FACTS = 100_000
#: The most steps between a class and a fact below it (the search's levels above its compiled
#: calls are fewer).
MOST_AFTER = 4


def _facts_problem(fresh: Record, entry: Mapping[str, Any], facts: object, path: str,
                   every: list[str]) -> str | None:
    """What is wrong with the facts of a class's certificate search as a record holds them: each
    a step below the class, or below the steps ``after`` it (a code and an answer of the game,
    once each), a bound from one to what the worst tree of the class could cost, whether it is
    exact, and its certificate, where its steps put it (see :func:`fact_path`); an exact fact
    just below the class may hold the tree made for it (see :func:`_fact_tree_problem`)."""
    if not isinstance(facts, list) or len(facts) > MOST_FACTS:
        return f"facts {brief(facts)} is not a list of at most {MOST_FACTS:,} facts"
    codes = {code: k for k, code in enumerate(game_codes(fresh["game"]))}
    texts = {text: k for k, text in enumerate(Game.from_dict(fresh["game"]).feedback_texts)}
    most = entry["secrets"] * (entry["secrets"] + 1) // 2

    def is_step(step: object) -> bool:
        return isinstance(step, list) and len(step) == 2 and \
            all(isinstance(part, str) for part in step) and step[0] in codes and step[1] in texts

    seen = set()
    for fact in facts:
        step = fact.get("step") if isinstance(fact, dict) else None
        after = fact.get("after", []) if isinstance(fact, dict) else None
        if not (is_step(step) and isinstance(after, list) and len(after) <= MOST_AFTER and
                all(is_step(s) for s in after) and ("after" not in fact or after)):
            return f"fact {brief(fact)} is not of a step below the class"
        steps = tuple(tuple(s) for s in (*after, step))
        if steps in seen:
            return f"fact {brief(fact)} is not of a step below the class, once"
        seen.add(steps)
        bound = fact.get("bound")
        if type(bound) is not int or not 0 < bound <= most or type(fact.get("exact")) is not bool:
            return f"fact {brief(fact)}: its bound is not a number of guesses from 1 to {most}"
        if not _is_reference(fact.get("certificate")):
            return f"fact {brief(fact)}: its certificate is not named by a file in the record's folder"
        place = fact_path(path, entry["feedback"], [(codes[c], texts[f]) for c, f in steps])
        if fact["certificate"]["file"] != place:
            return f"fact {brief(fact)}: its certificate is not {place}, where its steps put it"
        if "tree" in fact:
            problem = _fact_tree_problem(fresh, entry, fact, every)
            if problem:
                return f"fact {brief(fact['step'])}: its tree: {problem}"
    return None


def _fact_tree_problem(fresh: Record, entry: Mapping[str, Any], fact: Mapping[str, Any],
                       codes: list[str]) -> str | None:
    """What is wrong with the tree kept in an exact fact just below a class (made once, so that no
    machine searches it again): replayed with the plain scorer it must solve exactly the secrets
    of the fact's step at the cost the fact says, within the depth limit."""
    if not fact["exact"] or "after" in fact:
        return "only an exact fact just below its class keeps a tree"
    problem, height = check_tree(fresh["game"], fact["tree"])
    if problem:
        return problem
    first, (guess, answer) = fresh["first"], fact["step"]
    secrets = [c for c in codes if c != first and c != guess
               and answer_key(fresh["game"], first, c) == entry["feedback"]
               and answer_key(fresh["game"], guess, c) == answer]
    depths, problems = replay(cast(Node, fact["tree"]), secrets, fresh["game"], limit=1)
    if problems:
        return problems[0]
    if sum(depths) != fact["bound"]:
        return f"it needs {sum(depths)} guesses, not the {fact['bound']} its fact says"
    max_depth = fresh["max_depth"]
    if max_depth is not None and height + 2 > max_depth:
        return f"it needs {height + 2} guesses for some secret, more than the {max_depth} allowed"
    return None


def fact_path(path: str, feedback: str, steps: Sequence[tuple[int, int]]) -> str:
    """Where the certificate of a fact of a record's class is, relative to the record's folder,
    by the fact's steps below the class (indices; see :func:`treegen.search.facts.fact_place`)."""
    below = facts_folder(certificate_name(feedback))
    return "/".join((os.path.basename(certificate_folder(path)), *fact_place(below, steps)))


def _is_reference(ref: object) -> bool:
    """Whether a class's certificate is named as a record names it: a file below the record's
    folder (no absolute path, no ``..``), its SHA-256 and size."""
    if not isinstance(ref, dict) or not isinstance(ref.get("file"), str) or \
            not isinstance(ref.get("sha256"), str) or type(ref.get("bytes")) is not int:
        return False
    parts = ref["file"].split("/")
    return all(p not in ("", ".", "..") and "\\" not in p and "\0" not in p for p in parts) and \
        len(ref["sha256"]) == 64 and all(c in "0123456789abcdef" for c in ref["sha256"])


def _solved_problem(fresh: Record, entry: Mapping[str, Any], was: Mapping[str, Any],
                    codes: list[str]) -> str | None:
    """What is wrong with a solved class as a record holds it: its tree must solve exactly the
    class's secrets (replayed with the plain scorer), within the depth limit, at the cost given."""
    cost, seconds, tree = was.get("cost"), was.get("seconds"), was.get("tree")
    if type(cost) is not int or not 0 < cost < INFEASIBLE:
        return f"cost {brief(cost)} is not a number of guesses"
    if not _is_duration(seconds):
        return f"seconds {brief(seconds)} is not a duration"
    problem, height = check_tree(fresh["game"], tree)
    if problem:
        return f"its tree: {problem}"
    first = fresh["first"]
    secrets = [c for c in codes if c != first and answer_key(fresh["game"], first, c) == entry["feedback"]]
    depths, problems = replay(cast(Node, tree), secrets, fresh["game"], limit=1)
    if problems:
        return f"its tree: {problems[0]}"
    needed = sum(depths)
    if needed != cost:
        return f"its tree needs {needed} guesses, not the {cost} it says"
    if cost < entry["floor"]:
        return f"its cost {cost} is below the class's floor {entry['floor']}"
    max_depth = fresh["max_depth"]
    if max_depth is not None and height + 1 > max_depth:
        return f"its tree needs {height + 1} guesses for some secret, more than the {max_depth} allowed"
    return None


def _is_duration(seconds: object) -> bool:
    return isinstance(seconds, (int, float)) and type(seconds) is not bool and 0 <= seconds < 1e12


def _bounded_problem(entry: Mapping[str, Any], was: Mapping[str, Any]) -> str | None:
    """What is wrong with a class a budgeted search showed to cost at least so much. That claim,
    like a solved class's optimality, is the search's; it is bounded here, from the floor (a
    smaller one says nothing) to what the worst tree of the class could cost."""
    at_least, seconds = was.get("at_least"), was.get("seconds")
    most = entry["secrets"] * (entry["secrets"] + 1) // 2
    if type(at_least) is not int or not entry["floor"] <= at_least <= most:
        return (f"at_least {brief(at_least)} is not between its floor {entry['floor']} and "
                f"{most}")
    if not _is_duration(seconds):
        return f"seconds {brief(seconds)} is not a duration"
    return None


def record_text(record: Mapping[str, Any]) -> str:
    """The record's deterministic text: a line per field, a line per class (its tree compact).
    Its summary counts as certified every class that names a certificate: what the record
    claims, the same wherever it is written, whichever certificates are present or checked
    there (a reader checks them and counts again)."""
    claimed = {**record, "classes": [
        {**entry, "certified": "certificate" in entry and ("cost" in entry or "at_least" in entry)}
        for entry in record["classes"]]}
    totals(claimed)
    head = [f" {json.dumps(key)}: {json.dumps(claimed[key], ensure_ascii=False)}"
            for key in ("format", "version", "treegen", "game", "first", "max_depth", "secrets",
                        "solved", "certified", "lower_bound", "total")]
    classes = ",\n".join("  " + json.dumps({k: entry[k] for k in CLASS_KEYS if k in entry},
                                            ensure_ascii=False, separators=(",", ":"))
                         for entry in record["classes"])
    return "{\n" + ",\n".join(head) + ',\n "classes": [\n' + classes + "\n ]\n}\n"


# -- tables ---------------------------------------------------------------------------------------

def class_costs(book: Mapping[str, Any]) -> dict[str, int]:
    """What each class of a book's first guess costs in that book: the guesses its secrets need
    after the first, by answer. Beside a record, an upper bound on each unsolved class."""
    tree = book["tree"]
    costs: dict[str, int] = {}
    for secret in game_codes(book["game"]):
        node, guesses = tree, 1
        while node["guess"] != secret:
            node = node["next"][answer_key(book["game"], node["guess"], secret)]
            guesses += 1
        if guesses > 1:
            answer = answer_key(book["game"], tree["guess"], secret)
            costs[answer] = costs.get(answer, 0) + guesses - 1
    return costs


def record_table(record: Mapping[str, Any], book: Mapping[str, Any] | None = None) -> str:
    """A checked record as Markdown: each class with its optimal cost once proven (and whether its
    certificate was checked here), its floor otherwise, and (given a book opening with the same
    guess) that book's cost for it; then the bracket."""
    known = class_costs(book) if book is not None and book["strategy"]["first"] == record["first"] \
        else {}
    lines = ["| answer | secrets | optimal cost | first guess of its tree | time | floor | "
             "certificate |" + (" in the record book |" if known else ""),
             "|---|---|---|---|---|---|---|" + ("---|" if known else "")]
    upper = record["secrets"]
    for e in record["classes"]:
        solved = "cost" in e
        shown = e["cost"] if solved else \
            f"{e['at_least']} (found and proven; its tree is being made)" if "guess" in e else \
            f"at least {e['at_least']} (search within a budget)" if "at_least" in e else "not solved yet"
        proof = "" if not (solved or "at_least" in e) else \
            "none: an upper bound only" if not e.get("certified") else \
            f"[checked]({e['certificate']['file']})" if e.get("checked_here") else \
            f"[checked where written]({e['certificate']['file']})" if os.path.exists(
                os.path.join(record.get("folder", "."), *e["certificate"]["file"].split("/"))) else \
            "checked where written, not in this copy"
        row = (f"| {e['feedback']} | {e['secrets']} | {shown} | "
               f"{e['tree']['guess'] if solved else e.get('guess', '')} | "
               f"{duration_text(e['seconds']) if 'seconds' in e else ''}"
               f"{' so far' if 'seconds' in e and not (solved or 'at_least' in e) else ''} | "
               f"{e['floor']} | {proof} |")
        if known:
            row += f" {known.get(e['feedback'], '')} |"
            upper += e["cost"] if solved else known.get(e["feedback"], INFEASIBLE)
        lines.append(row)
    solved_count, count = record["solved"], len(record["classes"])
    if record.get("total") is not None:
        lines.append(f"\nAll {count} classes solved and certified: the optimum after "
                     f"{record['first']} is {record['total']}.")
    else:
        bracket = f"at least {record['lower_bound']}"
        if known and upper < INFEASIBLE:
            bracket += f" and at most {upper} (the record book's cost where a class is not solved)"
        lines.append(f"\n{solved_count} of {count} classes solved, {record['certified']} certified: "
                     f"the optimum after {record['first']} is {bracket}.")
    return "\n".join(lines) + "\n"


def duration_text(seconds: float) -> str:
    """Seconds as the index shows a search's time: seconds, minutes or hours."""
    if seconds < 60:
        return f"{seconds} s"
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes // 60} h {minutes % 60} min" if minutes >= 60 else f"{minutes} min {secs} s"

