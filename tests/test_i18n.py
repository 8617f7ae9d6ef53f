"""The page's two message catalogues (web/i18n/en.json and ja.json, read by web/js/i18n.js): the same messages with
the same placeholders, every key the page asks for present, every engine error reason and engine fact said in
Japanese, and no English sentence left in the Japanese catalogue."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from slidelab import api
from slidelab.core.errors import SlideLabError

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
EN = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
JA = json.loads((WEB / "i18n" / "ja.json").read_text(encoding="utf-8"))
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def placeholders(message) -> set[str]:
    forms = message.values() if isinstance(message, dict) else [message]
    return {name for form in forms for name in PLACEHOLDER.findall(form)}


def engine_facts() -> dict[str, str]:
    """The engine's names the page shows (api.describe()), by catalogue key, with the engine's English."""
    catalogue = api.describe()
    facts = {}
    for kind in ("algorithm", "heuristic"):
        for item in catalogue[f"{kind}s"]:
            facts[f"{kind}.{item['name']}.title"] = item["title"]
            facts[f"{kind}.{item['name']}.label"] = item["label"]
    for example in catalogue["heuristic_examples"]:
        facts[f"example.{example['name']}.title"] = example["title"]
    return facts


def test_both_catalogues_have_the_same_messages_with_the_same_placeholders():
    facts = engine_facts()
    assert set(JA) == set(EN) | set(facts)  # English names come from the engine; Japanese says each one
    assert [key for key in EN if placeholders(EN[key]) != placeholders(JA[key])] == []
    assert [key for key in facts if placeholders(JA[key])] == []


def test_plural_messages_have_the_forms_their_language_needs():
    for key, message in EN.items():
        if isinstance(message, dict):
            assert set(message) == {"one", "other"}, key
            assert set(JA[key]) == {"other"}, key  # Intl.PluralRules('ja') has only 'other'
        else:
            assert isinstance(JA[key], str), key


def test_watch_the_search_has_a_rule_for_exactly_the_algorithms_the_engine_can_trace():
    traceable = {a["name"] for a in api.describe()["algorithms"] if a["traceable"]}
    assert {key.split(".")[2] for key in EN if key.startswith("watch.rule.")} == traceable


def test_presets_the_page_names_before_the_engine_loads_say_what_the_engine_says():
    presets = {f"preset.{p['name']}.title": p["title"] for p in api.describe()["presets"]}
    assert {key: EN[key] for key in presets} == presets


def keys_the_page_asks_for() -> tuple[set[str], set[str]]:
    """Keys named literally in the page's code and HTML, and the prefixes of keys it builds (`watch.rule.${x}`)."""
    literal, prefixes = set(), set()
    html = (WEB / "index.html").read_text(encoding="utf-8")
    literal |= set(re.findall(r'data-i18n="([^"]+)"', html))
    literal |= {pair.split(":")[1] for attr in re.findall(r'data-i18n-attr="([^"]+)"', html) for pair in attr.split()}
    for path in (WEB / "js").glob("*.js"):
        code = path.read_text(encoding="utf-8")
        literal |= set(re.findall(r"\b(?:t|tHTML|has|fact)\('([\w.-]+)'", code))
        prefixes |= set(re.findall(r"\b(?:t|tHTML|has|fact|say)\(`([\w.-]+)\$\{", code))
        # keys kept in tables and passed to t() later ('solve.searching', HINT_LABELS, status names, ...)
        literal |= {key for key in re.findall(r"'([a-z]+(?:\.[\w-]+)+)'", code) if key.split(".")[0] in {
            k.split(".")[0] for k in EN}}
    return literal, prefixes


def test_every_key_the_page_asks_for_is_in_the_catalogue():
    literal, prefixes = keys_the_page_asks_for()
    known = set(EN) | set(engine_facts())
    assert len(literal) > 300
    assert sorted(key for key in literal if key not in known and not key.endswith((".js", ".json"))) == []
    assert sorted(p for p in prefixes if not any(key.startswith(p) for key in known)) == []


def error_reasons() -> set[str]:
    """Every reason the engine gives an error (`reason="..."` where it raises one)."""
    reasons = set()
    for path in (ROOT / "pysrc" / "slidelab").rglob("*.py"):
        reasons |= set(re.findall(r'\breason="(\w+)"', path.read_text(encoding="utf-8")))
    return reasons


def test_every_engine_error_is_said_in_both_languages_by_its_reason_and_its_code():
    reasons = error_reasons()
    assert {"parity", "time_limit", "node_limit", "syntax", "bad_value", "trapped"} <= reasons
    codes = {"invalid", "user_code", "missing_data", "unavailable", "unsolvable", "too_large", "limit", "cancelled",
             "internal"}
    for key in [f"error.{name}" for name in reasons | codes]:
        assert key in EN and key in JA, key


@pytest.mark.parametrize(("request_", "reason", "details"), [
    ({"puzzle": "sliding", "board": "8 6 7/2 5 4/3 0 1", "algorithm": "bfs", "max_nodes": 100}, "node_limit",
     {"limit": 100}),
    ({"puzzle": "sliding", "board": "8 6 7/2 5 4/3 0 1", "heuristic": "yours", "heuristic_code": "def h(b):\n  return"},
     "bad_value", {"value": "None", "type": "NoneType"}),
    ({"puzzle": "sliding", "board": "8 6 7/2 5 4/3 0 1", "heuristic": "yours", "heuristic_code": "def h(b) return 0"},
     "syntax", {"line": 1}),
])
def test_an_error_answer_carries_its_reason_and_the_details_the_message_names(request_, reason, details):
    answer = api.solve(request_)
    assert not answer["ok"] and answer["error"]["reason"] == reason
    assert details.items() <= answer["error"]["details"].items()
    assert placeholders(JA[f"error.{reason}"]) <= set(answer["error"]["details"])


def test_an_unsolvable_position_says_why_by_its_reason():
    answer = api.check({"puzzle": "sliding", "board": "2 1 3/4 5 6/7 8 0"})
    assert answer["solvable"] is False and answer["why"]["reason"] == "parity"
    assert answer["reason"] == answer["why"]["message"]  # the CLI's English stays


def test_an_error_without_a_reason_answers_its_code_and_message_only():
    assert SlideLabError("plain").as_dict() == {"code": "error", "message": "plain"}


# Japanese may keep names a reader types or cites: code, file names, commands, algorithm symbols and titles of papers.
KEPT_IN_ENGLISH = re.compile(r"`[^`]*`|\{\w+\}|\"[^\"]*\"|Slide Lab|Paolo Guarini di Forli|Pyodide|Python|Web Worker|"
                             r"IDA\*|A\*|[A-Z][a-z]+, |\b(?:def|board|max_steps|max_nodes|heuristic=yours|"
                             r"algorithm=weighted|rule|code|auto|pdb|numpy|slidelab explore|data/explored\.json|"
                             r"Artificial Intelligence|IJCAI|Table)\b")


def test_no_english_sentence_is_left_in_the_japanese_catalogue():
    english = re.compile(r"[A-Za-z]{3,}[ ,]+[A-Za-z]{3,}")
    left = {}
    for key, message in JA.items():
        for form in (message.values() if isinstance(message, dict) else [message]):
            if english.search(KEPT_IN_ENGLISH.sub(" ", form)):
                left[key] = form
    assert left == {}


def test_a_damaged_table_file_is_refused_with_its_reason():
    answer = api.install_pattern_database(b"SLPDB not a table")
    assert not answer["ok"] and answer["error"]["code"] == "missing_data"
    assert answer["error"]["reason"] == "bad_table" and answer["error"]["details"]["problem"]
