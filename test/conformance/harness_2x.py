"""What every 2.x conformance flow module shares: the command line, the SDK client, one JSON line per check.

flows_2x.py is the entry point (its docstring gives the command line); the flows live in it and in the
flows_2x_*.py modules it imports, each registering with @flow, and run() runs them in that order.
"""
import glob
import importlib
import json
import os
import re
import sys
import traceback

import urllib3

urllib3.disable_warnings()

from pypureclient import flashblade  # noqa: E402
from pypureclient.exceptions import PureError  # noqa: E402,F401  (the flows catch it)

HOST, VERSION, TOKEN, FIXTURES, LISTS, DR_HOST = sys.argv[1:7]
# The peer array's name, as conformance-2x.test.ts starts it: array connections must learn it.
DR_NAME = "conf-dr"
V = tuple(int(p) for p in VERSION.split("."))
# Request models of the version under test (flashblade.<Model> would be 2.24's).
M = importlib.import_module(f"pypureclient.flashblade.FB_{VERSION.replace('.', '_')}.models")
HTTP = urllib3.PoolManager(cert_reqs="CERT_NONE")


def report(point, check, ok, detail=""):
    print(json.dumps({"version": VERSION, "point": point, "check": check, "ok": bool(ok), "detail": str(detail)[:500]}))
    sys.stdout.flush()


def fixture(name):
    with open(f"{FIXTURES}/{name}") as f:
        return f.read()


def connect(host=HOST, **auth):
    return flashblade.Client(host, version=VERSION, verify_ssl=False, timeout=(10, 30), retries=0, **auth)


_sessions = {}


def session(host=HOST):
    """An SDK client logged in by API token, one per array (the login flow checks the login itself)."""
    if host not in _sessions:
        _sessions[host] = connect(host, api_token=TOKEN)
    return _sessions[host]


def sdk_gets(version):
    """The SDK's GET calls at `version` as {path: method}, read from its generated client and API modules."""
    root = os.path.dirname(flashblade.__file__)
    with open(f"{root}/FB_{version.replace('.', '_')}/client.py") as f:
        client = f.read()
    one_def = r"(?:(?!\n    def ).)*?"  # the rest of one method, not into the next
    calls = re.findall(rf"\n    def (get_\w+)\({one_def}self\._call_api\('\w+', 'api\d+_(\w+)_with_http_info'", client, re.S)
    paths = {}
    for name in glob.glob(f"{root}/_common/apis/*.py"):
        with open(name) as f:
            for fn, path in re.findall(rf"\n    def (\w+)_with_http_info\({one_def}f'/api/\{{self\.version\}}([^']*)', 'GET'", f.read(), re.S):
                paths.setdefault(fn, path)
    return {paths[api]: method for method, api in calls if api in paths}


def valid(r):
    return isinstance(r, flashblade.ValidResponse)


def why(r):
    if valid(r):
        return r
    return (r.status_code, [(e.context, e.message) for e in (r.errors or [])])


def raw(method, path, body=None, headers=None, host=HOST):
    """A plain request as the SDK shapes it, for what the SDK's models cannot express (and to read raw pages)."""
    login = HTTP.request("POST", f"https://{host}/api/login", headers={"api-token": TOKEN})
    h = {"x-auth-token": login.headers["x-auth-token"], "Content-Type": "application/json", **(headers or {})}
    data = None if body is None else json.dumps(body)
    return HTTP.request(method, f"https://{host}/api/{path}", headers=h, body=data)


def ok(r):
    """The items of a successful answer; raises with the array's errors otherwise."""
    if not valid(r):
        raise RuntimeError(f"refused: {why(r)}")
    return list(r.items or [])


def refused(point, name, r, text):
    """The call must be refused with 400 and an error message containing `text`."""
    if valid(r):
        report(point, name, False, "accepted, expected a refusal")
        return
    said = " ".join(e.message or "" for e in (r.errors or []))
    report(point, name, r.status_code == 400 and text.lower() in said.lower(), f"{r.status_code} {said}")


def names(items):
    return sorted(i.name for i in items)


def protocols_off():
    return dict(nfs=M.Nfs(v3_enabled=False, v4_1_enabled=False), smb=M.Smb(enabled=False), http=M.Http(enabled=False))


FLOWS = []


def flow(since):
    def wrap(fn):
        FLOWS.append((since, fn))
        return fn

    return wrap


def run():
    for since, fn in FLOWS:
        if V < since:
            continue
        try:
            fn()
        except Exception as e:  # a flow that breaks is a failed check, not the end of the run
            report("flow", fn.__name__, False, f"{type(e).__name__}: {e} {traceback.format_exc()[-600:]}")
