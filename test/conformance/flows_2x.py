"""Conformance flows: Pure's own REST 2.x Python SDK (py-pure-client 1.90.0) drives a simulated array.

Usage: flows_2x.py HOST VERSION API_TOKEN FIXTURES_DIR LISTS_JSON

HOST serves 1.x and 2.x up to VERSION. FIXTURES_DIR holds `client-key.pem` (PKCS#1, as paramiko reads it) and
`client-public.pem`, and is the working directory (the SDK writes its OAuth access token there). LISTS_JSON is
the list of canonical GET paths of the operation table that 1.x has and VERSION serves (conformance-2x.test.ts
reads it from src/rest-spec/operations.ts), each with the SDK method that must exist for it.

Each check prints one JSON line, as flows.py: {"version", "point", "check", "ok", "detail"}. A flow that raises is
a failed check and the next flow still runs; no traceback reaches stdout or stderr.
"""
import importlib
import json
import sys
import traceback

import urllib3

urllib3.disable_warnings()

from pypureclient import flashblade  # noqa: E402
from pypureclient.exceptions import PureError  # noqa: E402

HOST, VERSION, TOKEN, FIXTURES, LISTS = sys.argv[1:6]
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


def connect(**auth):
    return flashblade.Client(HOST, version=VERSION, verify_ssl=False, timeout=(10, 30), retries=0, **auth)


def valid(r):
    return isinstance(r, flashblade.ValidResponse)


def why(r):
    if valid(r):
        return r
    return (r.status_code, [(e.context, e.message) for e in (r.errors or [])])


def raw(method, path, body=None, headers=None):
    """A plain request as the SDK shapes it, for what the SDK's models cannot express (and to read raw pages)."""
    login = HTTP.request("POST", f"https://{HOST}/api/login", headers={"api-token": TOKEN})
    h = {"x-auth-token": login.headers["x-auth-token"], "Content-Type": "application/json", **(headers or {})}
    data = None if body is None else json.dumps(body)
    return HTTP.request(method, f"https://{HOST}/api/{path}", headers=h, body=data)


FLOWS = []


def flow(since):
    def wrap(fn):
        FLOWS.append((since, fn))
        return fn

    return wrap


fb = None


@flow((2, 0))
def login_api_token():
    global fb
    p = "login-api-token"
    fb = connect(api_token=TOKEN)
    report(p, "the SDK picked the requested version", type(fb).__module__.endswith(f"FB_{VERSION.replace('.', '_')}.client"), type(fb).__module__)
    r = fb.get_arrays()
    report(p, "a call with the session answers", valid(r) and len(list(r.items)) == 1, why(r))


def register_client(name, enabled):
    """The API client the OAuth login uses, made through the 2.x SDK as an admin would."""
    made = fb.post_api_clients(names=[name], api_client=M.ApiClientsPost(
        max_role=M.ReferenceWritable(name="array_admin"), issuer="conf-issuer",
        public_key=fixture("client-public.pem"), access_token_ttl_in_ms=3_600_000))
    if not valid(made):
        raise RuntimeError(f"post_api_clients failed: {why(made)}")
    client = list(made.items)[0]
    if enabled:
        done = fb.patch_api_clients(names=[name], api_clients=M.ApiClient(enabled=True))
        if not valid(done):
            raise RuntimeError(f"patch_api_clients failed: {why(done)}")
    return client


def oauth(client, **over):
    args = dict(private_key_file=f"{FIXTURES}/client-key.pem", username="pureuser", client_id=client.id,
                key_id=client.key_id, issuer="conf-issuer")
    args.update(over)
    return connect(**args)


@flow((2, 0))
def login_oauth():
    p = "login-oauth"
    client = register_client("conf-oauth", enabled=False)
    report(p, "an API client is created disabled, with an id and a key_id", client.enabled is False and bool(client.id) and bool(client.key_id), client)
    try:
        oauth(client)
        report(p, "a disabled client's token exchange is refused", False, "accepted")
    except PureError as e:
        report(p, "a disabled client's token exchange is refused", True, e)
    fb.patch_api_clients(names=["conf-oauth"], api_clients=M.ApiClient(enabled=True))
    via = oauth(client)
    r = via.get_arrays()
    report(p, "the access token is taken as Bearer", valid(r) and len(list(r.items)) == 1, why(r))
    for label, over in (("a wrong issuer", {"issuer": "someone-else"}), ("an unknown user", {"username": "nobody"})):
        try:
            oauth(client, **over)
            report(p, f"{label} is refused", False, "accepted")
        except PureError as e:
            report(p, f"{label} is refused", True, e)


def page_accepted(path, method, r):
    """The SDK's answer is a page, and every raw item validates against the model class the SDK chose for it."""
    if not valid(r):
        return False, why(r)
    items = list(r.items)
    if not items:
        return True, "empty"
    body = json.loads(raw("GET", f"{VERSION}{path}").data or b"{}")
    model = type(items[0])
    try:
        for item in body.get("items", []):
            model.parse_obj(item)
    except Exception as e:  # pydantic's ValidationError names the field and the type
        return False, f"{model.__name__}: {e}"
    return True, len(items)


# Calls that need a selector to be a listing at all (the SDK has no default for it).
ARGS = {
    "get_usage_users": lambda: {"file_system_names": ["home"]},
    "get_usage_groups": lambda: {"file_system_names": ["home"]},
}


@flow((2, 0))
def every_list():
    p = "lists"
    with open(LISTS) as f:
        wanted = json.load(f)
    for entry in wanted:
        path, method = entry["path"], entry["method"]
        call = getattr(fb, method, None)
        if call is None:
            report(p, f"GET {path}: the SDK has {method}", False, "no such method")
            continue
        try:
            ok, detail = page_accepted(path, method, call(**ARGS.get(method, dict)()))
        except Exception as e:  # a pydantic error or PureError out of the call: the page was not accepted
            ok, detail = False, f"{type(e).__name__}: {e}"
        report(p, f"GET {path} ({method})", ok, detail)


for since, fn in FLOWS:
    if V < since:
        continue
    try:
        fn()
    except Exception as e:  # a flow that breaks is a failed check, not the end of the run
        report("flow", fn.__name__, False, f"{type(e).__name__}: {e} {traceback.format_exc()[-600:]}")
