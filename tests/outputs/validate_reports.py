#!/usr/bin/env python3
"""Checks patchcheck's reports by hand against the rules their readers hold
them to (no schema download, no jsonschema module):

  validate_reports.py sarif FILE [--errors] [--results N]
  validate_reports.py junit FILE [--errors]
  validate_reports.py json FILE [--errors] [--exit-code N]
  validate_reports.py ktap FILE

SARIF: the SARIF 2.1.0 rules GitHub code scanning applies on upload
(version, $schema, runs[].tool.driver.name, results[].message.text, ruleId
among the driver's rules, a relative artifactLocation.uri with a
uriBaseId or an absolute file: URI, region.startLine >= 1,
partialFingerprints), and for bad input a tool execution notification of
level error with its file position and executionSuccessful false.
--errors: the report must carry input errors; without it, none.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET


def fail(msg):
    print("validate_reports: " + msg, file=sys.stderr)
    sys.exit(1)


def check_location(loc, where, run):
    phys = loc.get("physicalLocation")
    if not isinstance(phys, dict):
        fail(where + ": location without physicalLocation")
    art = phys.get("artifactLocation", {})
    uri = art.get("uri")
    if not isinstance(uri, str) or not uri:
        fail(where + ": artifactLocation.uri missing")
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*:", uri):
        if not uri.startswith("file:///"):
            fail(where + ": absolute URI is not a file:/// URI: " + uri)
    else:
        if uri.startswith("/") or uri.startswith("../") or "\\" in uri or " " in uri:
            fail(where + ": relative URI is not a clean relative path: " + uri)
        base = art.get("uriBaseId")
        if base is not None and base not in run.get("originalUriBaseIds", {}):
            fail(where + ": uriBaseId " + base + " not in originalUriBaseIds")
    region = phys.get("region")
    if not isinstance(region, dict):
        fail(where + ": no region")
    line = region.get("startLine")
    if not isinstance(line, int) or line < 1:
        fail(where + ": region.startLine must be an integer >= 1")
    col = region.get("startColumn")
    if col is not None and (not isinstance(col, int) or col < 1):
        fail(where + ": region.startColumn must be an integer >= 1")
    return phys


def sarif(path, errors, nresults):
    doc = json.load(open(path))
    if doc.get("version") != "2.1.0":
        fail("version is not 2.1.0")
    if not isinstance(doc.get("$schema"), str) or "sarif" not in doc["$schema"]:
        fail("$schema missing")
    runs = doc.get("runs")
    if not isinstance(runs, list) or not runs:
        fail("no runs")
    seen_errors = False
    total = 0
    for r, run in enumerate(runs):
        driver = run.get("tool", {}).get("driver", {})
        if not isinstance(driver.get("name"), str) or not driver["name"]:
            fail("runs[%d].tool.driver.name missing" % r)
        rule_ids = [x.get("id") for x in driver.get("rules", [])]
        for x in driver.get("rules", []):
            if not x.get("shortDescription", {}).get("text"):
                fail("rule %s without shortDescription.text" % x.get("id"))
            if not x.get("help", {}).get("text"):
                fail("rule %s without help.text" % x.get("id"))
        for b, base in run.get("originalUriBaseIds", {}).items():
            if not base.get("uri", "").endswith("/"):
                fail("originalUriBaseIds." + b + " must end in /")
        results = run.get("results")
        if not isinstance(results, list):
            fail("runs[%d].results missing" % r)
        total += len(results)
        for i, res in enumerate(results):
            where = "runs[%d].results[%d]" % (r, i)
            if not isinstance(res.get("message", {}).get("text"), str) or not res["message"]["text"]:
                fail(where + ": message.text missing")
            if res.get("ruleId") not in rule_ids:
                fail(where + ": ruleId %r not among the driver's rules" % res.get("ruleId"))
            if res.get("level") not in ("error", "warning", "note", "none"):
                fail(where + ": bad level")
            locs = res.get("locations")
            if not isinstance(locs, list) or not locs:
                fail(where + ": no locations")
            for loc in locs:
                check_location(loc, where, run)
            fp = res.get("partialFingerprints")
            if not isinstance(fp, dict) or not fp or not all(isinstance(v, str) and v for v in fp.values()):
                fail(where + ": partialFingerprints missing")
            for flow in res.get("codeFlows", []):
                for tf in flow.get("threadFlows", []):
                    if not tf.get("locations"):
                        fail(where + ": empty threadFlow")
                    for tl in tf["locations"]:
                        check_location(tl.get("location", {}), where + " codeFlow", run)
            if res.get("ruleId") == "input-error":
                seen_errors = True
        invs = run.get("invocations", [])
        for inv in invs:
            if not isinstance(inv.get("executionSuccessful"), bool):
                fail("invocation without executionSuccessful")
            notes = inv.get("toolExecutionNotifications", [])
            if errors and inv["executionSuccessful"]:
                fail("input errors but executionSuccessful is true")
            if not errors and not inv["executionSuccessful"]:
                fail("no input errors expected but executionSuccessful is false")
            for n in notes:
                if n.get("level") != "error" or not n.get("message", {}).get("text"):
                    fail("notification without level error and message.text")
                for loc in n.get("locations", []):
                    check_location(loc, "notification", run)
        if errors and not any(inv.get("toolExecutionNotifications") for inv in invs):
            fail("input errors but no toolExecutionNotifications")
    if errors and not seen_errors:
        fail("input errors but no input-error result")
    if not errors and seen_errors:
        fail("input-error result where none was expected")
    if nresults is not None and total < nresults:
        fail("%d result(s), expected at least %d" % (total, nresults))


def junit(path, errors):
    root = ET.parse(path).getroot()
    if root.tag != "testsuites":
        fail("root element is not <testsuites>")
    n_err = 0
    for suite in root.findall("testsuite"):
        cases = suite.findall("testcase")
        if int(suite.get("tests")) != len(cases):
            fail("suite %s: tests= does not count its cases" % suite.get("name"))
        n_err += sum(1 for c in cases for e in c.findall("error") if e.get("type") == "input-error")
    if errors and not n_err:
        fail("input errors but no input-error test case")
    if not errors and n_err:
        fail("input-error test case where none was expected")


def jsonreport(path, errors, code):
    doc = json.load(open(path))
    if doc.get("format_version") != 1:
        fail("format_version is not 1 (docs/json.md)")
    if not isinstance(doc.get("results"), list) or not isinstance(doc.get("errors"), list):
        fail("results or errors missing")
    if errors and not doc["errors"]:
        fail("input errors but an empty errors array")
    if not errors and doc["errors"]:
        fail("errors where none were expected")
    for e in doc["errors"]:
        for k in ("file", "line", "column", "message"):
            if k not in e:
                fail("error without " + k)
    if code is not None and doc.get("exit_code") != code:
        fail("exit_code %r, expected %d" % (doc.get("exit_code"), code))


def ktap(path):
    lines = open(path).read().splitlines()
    if not lines or lines[0] != "KTAP version 1":
        fail("first line is not 'KTAP version 1'")
    m = re.match(r"^1\.\.(\d+)$", lines[1] if len(lines) > 1 else "")
    if not m:
        fail("second line is not the plan 1..N")
    n = 0
    for line in lines[2:]:
        t = re.match(r"^(ok|not ok) (\d+) \S", line)
        if t:
            n += 1
            if int(t.group(2)) != n:
                fail("test %s out of order" % t.group(2))
        elif not line.startswith("#"):
            fail("line is neither a result nor a diagnostic: " + line)
    if n != int(m.group(1)):
        fail("plan says %s, %d results" % (m.group(1), n))


def main(argv):
    if len(argv) < 3:
        fail(__doc__)
    kind, path, rest = argv[1], argv[2], argv[3:]
    errors = "--errors" in rest
    def opt(name):
        return int(rest[rest.index(name) + 1]) if name in rest else None
    if kind == "sarif":
        sarif(path, errors, opt("--results"))
    elif kind == "junit":
        junit(path, errors)
    elif kind == "json":
        jsonreport(path, errors, opt("--exit-code"))
    elif kind == "ktap":
        ktap(path)
    else:
        fail("unknown kind " + kind)


if __name__ == "__main__":
    main(sys.argv)
