"""The library's certificates: one beside every book that claims a bound (the optimal books, a
bounded search's book, a grafted book resting on its records), one per proven class of every
opening's record, and ``books/certificates.json``, what each proves, its size and how long it
took to write and to check, as ``treegen books certify`` made and checked it here.

Certificates up to :data:`COMMIT_BYTES` are committed, larger ones stay out of the repository
(``books/.gitignore`` names them), and the manifest says which (``committed``: in the repository;
some written when the limit was 2 MiB are still out, though smaller than it now). The tests check
again the committed ones that take seconds (:data:`QUICK_SECONDS`); what the others prove the
library counts as checked where they were made, and the index says which claims rest on that.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from treegen import book as books
from treegen.files.atomic import write_atomic
from treegen.library.catalogue import OPENINGS, Entry
from treegen.settings import COMMIT_BYTES

#: Memory enough for any certificate's header (see :func:`_whole`).
UNWEIGHED = 1 << 60

MANIFEST = "certificates.json"
IGNORED = ".gitignore"
#: Committed certificates checked within this many seconds are checked again by the tests.
QUICK_SECONDS = 10.0


def certificate_file(entry: Entry) -> str:
    return entry.name + ".cert"


def manifest(folder: str) -> dict[str, Any]:
    """The manifest in ``folder``: ``books`` (by book name) and ``records`` (by record file, then
    answer), each certificate's file, SHA-256, size, bound and times; empty when there is none."""
    try:
        with open(os.path.join(folder, MANIFEST), encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return {"books": {}, "records": {}}
    if not isinstance(data, dict) or not isinstance(data.get("books"), dict) or \
            not isinstance(data.get("records"), dict):
        return {"books": {}, "records": {}}
    if not isinstance(data.get("writing", {}), dict):
        data["writing"] = {}
    return data


def checked_elsewhere(folder: str) -> dict[str, int]:
    """The certificates the library counts as checked where they were written, by SHA-256, with
    the bound each proved there: those kept out of the repository, and committed ones whose check
    takes more than :data:`QUICK_SECONDS` (the tests check the others again)."""
    found = {}
    data = manifest(folder)
    listed = [*data["books"].values(),
              *(c for classes in data["records"].values() for c in classes.values())]
    for item in listed:
        if isinstance(item, dict) and not quick(item) and \
                isinstance(item.get("sha256"), str) and isinstance(item.get("bound"), int):
            found[item["sha256"]] = item["bound"]
    return found


def quick(item: dict[str, Any]) -> bool:
    """Whether a manifest's certificate is in the repository and checked in seconds, with the
    premises it rests on (a grafted book's: its records' classes): the tests check it again."""
    seconds = [item.get("check_seconds"), item.get("premises_check_seconds", 0.0)]
    return bool(item.get("committed")) and \
        all(isinstance(s, (int, float)) and not isinstance(s, bool) for s in seconds) and \
        sum(seconds) <= QUICK_SECONDS


def premises_check_seconds(entry: Entry, data: dict[str, Any]) -> float | None:
    """What the checks of a grafted book's premises took here, its records' class certificates
    with their facts (the manifest's times): its own check alone, seconds once they have passed,
    says nothing of what a reader checking it from nothing needs. None where a class was not
    timed here (or is not listed)."""
    total = 0.0
    for file in entry.record_files:
        classes = data["records"].get(file[:-len(".json")])
        if not isinstance(classes, dict) or not classes:
            return None
        for item in classes.values():
            seconds = item.get("check_seconds") if isinstance(item, dict) else None
            if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or seconds < 0:
                return None
            total += seconds
    return round(total, 1)


def certify_library(folder: str, chosen: list[Entry],
                    told: Callable[[str], None] = lambda line: None, jobs: int = 1) -> None:
    """Write and check the certificates the chosen books lack, and the manifest. A grafted book's
    certificate rests on those of its records' classes: they are written first, and its check
    takes its premises one by one (``jobs`` at a time), remembering each as it passes. A
    certificate written but not yet checked (``writing`` in the manifest) is not written again."""
    from treegen.search.classes import certify_record
    from treegen.search.records import record_name
    data = manifest(folder)
    elsewhere = checked_elsewhere(folder)  # a class certified where it was written stays so
    games = {entry.game for entry in chosen}
    records = sorted({record_name(game, first) for game, first in OPENINGS if game in games} |
                     {file for entry in chosen if entry.grafted is not None
                      for file in entry.record_files})
    for file in records:
        path = os.path.join(folder, file)
        if not os.path.exists(path):
            continue
        stem = file[:-len(".json")]
        classes = data["records"].setdefault(stem, {})

        def class_told(entry: dict[str, Any], classes: dict[str, Any] = classes,
                       file: str = file) -> None:
            ref = entry["certificate"]
            checked = entry["check_seconds"]  # None: judged before, so timed by a check now
            if checked is None:
                checked = _checked_in(os.path.join(folder, ref["file"]), entry)
            classes[entry["feedback"]] = {
                "file": ref["file"], "sha256": ref["sha256"], "bytes": ref["bytes"],
                "bound": entry["cost"] if "cost" in entry else entry["at_least"],
                "write_seconds": entry["seconds"], "check_seconds": checked,
                "committed": ref["bytes"] <= COMMIT_BYTES}
            told(f"{file}: class {entry['feedback']} certified")
            _save(folder, data)

        record = certify_record(path, told=class_told, elsewhere=elsewhere)
        for entry in record["classes"]:  # certified before (by `treegen classes`, or elsewhere)
            ref = entry.get("certificate")
            if ref is not None and entry.get("certified") and entry["feedback"] not in classes:
                classes[entry["feedback"]] = {
                    "file": ref["file"], "sha256": ref["sha256"], "bytes": ref["bytes"],
                    "bound": entry["cost"] if "cost" in entry else entry["at_least"],
                    "write_seconds": entry.get("seconds"),
                    "check_seconds": _checked_in(os.path.join(folder, ref["file"]), entry),
                    "committed": ref["bytes"] <= COMMIT_BYTES}
                told(f"{file}: class {entry['feedback']} listed")
        _save(folder, data)
    for entry in chosen:
        item = _certify_book(folder, entry, data, jobs)
        if item is not None:
            data["books"][entry.name] = item
            told(f"{certificate_file(entry)}: {item['bytes']:,} bytes, written in "
                 f"{item['write_seconds']} s, checked in {item['check_seconds']} s")
            _save(folder, data)
    _save(folder, data)


def _certify_book(folder: str, entry: Entry, data: dict[str, Any], jobs: int
                  ) -> dict[str, Any] | None:
    """The manifest's item of a book's certificate, written and checked anew unless the one there
    is of this very book and still whole; None for a book that claims nothing."""
    known = data["books"].get(entry.name)
    from treegen.errors import TreegenError
    from treegen.proofs import book_claim, certify, check_certificate, compose, judge
    from treegen.search.records import load_record
    path = os.path.join(folder, entry.book_file)
    if not os.path.exists(path):
        return None
    book = books.load(path)
    claimed = book_claim(book)
    if claimed is None:
        return None
    target = os.path.join(folder, certificate_file(entry))
    digest = _digest(path)
    resting = {} if entry.grafted is None else \
        {"premises_check_seconds": premises_check_seconds(entry, data)}
    if isinstance(known, dict) and known.get("book_sha256") == digest and \
            _whole(folder, known):
        return {**known, **resting}
    wider = _without_depth_limit(folder, entry, data)
    if wider is not None and wider.get("bound") == claimed[0]:  # it may prove this claim too
        proven = check_certificate(os.path.join(folder, wider["file"]), jobs=jobs)
        if not judge(book, proven)[1]:
            return {**wider, "book_sha256": digest, "bound": proven.bound, "first": proven.first}
    writing = data.setdefault("writing", {})
    item = writing.get(entry.name)
    if not (isinstance(item, dict) and item.get("book_sha256") == digest and
            type(item.get("bytes")) is int and isinstance(item.get("write_seconds"), (int, float))
            and os.path.exists(target) and item.get("sha256") == _digest(target)):
        began = time.monotonic()
        if entry.grafted is not None:
            records = [load_record(os.path.join(folder, file)) for file in entry.record_files]
            size = compose(book, records, target)[1]
        else:
            size = certify(book, target)
        item = {"file": certificate_file(entry), "sha256": _digest(target), "bytes": size,
                "book_sha256": digest,
                "write_seconds": round(time.monotonic() - began, 1), "check_seconds": 0.0}
        writing[entry.name] = item
        _save(folder, data)
    item = dict(item)
    before = item.get("check_seconds")
    before = float(before) if isinstance(before, (int, float)) and before >= 0 else 0.0
    began = time.monotonic()
    try:  # checked anew, but a check stopped before goes on from the claims that passed
        proven = check_certificate(target, jobs=jobs, again=True)
    except BaseException:
        writing[entry.name] = dict(item, check_seconds=round(before + time.monotonic() - began, 1))
        _save(folder, data)
        raise
    problems = judge(book, proven)[1]
    if problems:
        raise TreegenError(f"{certificate_file(entry)}: {problems[0]}")
    writing.pop(entry.name, None)
    return {**item, "bound": proven.bound, "first": proven.first,
            "check_seconds": round(before + time.monotonic() - began, 1),
            "committed": item["bytes"] <= COMMIT_BYTES, **resting}


def _whole(folder: str, item: dict[str, Any]) -> bool:
    """Whether a manifest's certificate is here, the very file it lists, and still names the
    premises beside it: a record's class certificate written again (smaller, say) leaves the
    certificates that named the old one to be written again. A premise absent here (kept out of
    the repository) says nothing either way, nor does a header this reader refuses (the check
    will say why)."""
    from treegen.certificate import CertificateRefused, read_header
    file = item.get("file")
    path = os.path.join(folder, file) if isinstance(file, str) and os.path.basename(file) == file \
        else None
    if path is None or not os.path.isfile(path):
        return False
    with open(path, "rb") as fh:
        data = fh.read()
    if item.get("sha256") != hashlib.sha256(data).hexdigest():
        return False
    try:  # the header only: its size is not weighed against the memory free now
        header, _ = read_header(data, memory=UNWEIGHED)
    except CertificateRefused:
        return True
    for premise in header.get("premises") or []:
        where = os.path.join(folder, *str(premise.get("file", "")).split("/"))
        if os.path.isfile(where) and _digest(where) != premise.get("sha256"):
            return False
    return True


def _without_depth_limit(folder: str, entry: Entry, data: dict[str, Any]
                         ) -> dict[str, Any] | None:
    """The manifest's item of the certificate of ``entry``'s search without its depth limit, if
    it is here: a bound over trees of any depth bounds those of fewer guesses, so where the
    optimum is reached within the limit one certificate proves both books."""
    if entry.max_depth is None:
        return None
    item = data["books"].get(replace(entry, max_depth=None).name)
    return dict(item) if isinstance(item, dict) and _whole(folder, item) else None


def _checked_in(path: str, entry: dict[str, Any]) -> float | None:
    """The seconds the checker takes on a class's certificate here (it must prove the class's
    claim), the facts it rests on included (no index lists them on their own): what its check
    took when it passed here, in pieces perhaps (a campaign's class), or else what a check of it
    again takes (itself, its premises known; stopped, it goes on from the claims that passed, as
    any check), and then its own time alone where a premise's was never taken here; None where
    the file is not here (checked where it was written)."""
    from treegen.errors import CertificateError
    from treegen.files.checked import check_certificate, checked_seconds, whole_checked_seconds
    if not os.path.exists(path):
        return None
    timed = checked_seconds(path) is not None
    proven = check_certificate(path, again=not timed)
    claimed = entry["cost"] if "cost" in entry else entry["at_least"]
    if proven.bound < claimed:
        raise CertificateError(f"{path} proves {proven.bound}, not the {claimed} its class claims")
    whole = whole_checked_seconds(path)
    return round(whole, 1) if whole is not None else checked_seconds(path)


def _digest(path: str) -> str:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def _save(folder: str, data: dict[str, Any]) -> None:
    """The manifest, and the list of certificates kept out of the repository."""
    write_atomic(os.path.join(folder, MANIFEST), json.dumps(data, indent=1, sort_keys=True) + "\n")
    listed = [*data["books"].values(), *data.get("writing", {}).values(),
              *(c for cs in data["records"].values() for c in cs.values())]
    kept_out = sorted({item["file"] for item in listed if not item.get("committed")})
    write_atomic(os.path.join(folder, IGNORED),
                 "# certificates too large for the repository (see certificates.json)\n"
                 + "".join(f"/{file}\n" for file in kept_out))
