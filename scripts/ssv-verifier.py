#!/usr/bin/env python3
"""An AdMob server-side-verification (SSV) verifier built on Python's `cryptography` package, independent of vplay's
own signing code: the tests check vplay's reward callbacks with it, and `vplay reward-check` is tested against it.

  ssv-verifier.py verify KEYS.json URL [--raw]     exit 0 when URL's signature verifies, 1 when not (reason on stderr)
  ssv-verifier.py serve KEYS.json [--naive]        an HTTP endpoint on a free loopback port (its port on stdout's first line)

`verify` follows Google's reference verifier (Tink's RewardedAdsVerifier): `signature` and `key_id` must be the last
two query parameters; the signed content is the percent-DECODED query before `&signature=`; the key is looked up by
`key_id` in the keys JSON ({"keys":[{"keyId":…,"pem":…,"base64":…}]}); the signature is DER ECDSA P-256/SHA-256 in
URL-safe base64. `--raw` verifies the raw (still encoded) query instead, as many hand-written verifiers do.

`serve` answers each GET: 200 when the callback verifies and its transaction_id is new (then remembered), 403
otherwise. `--naive` is a broken backend: it verifies the raw query, finds `signature`/`key_id` anywhere in the query,
and credits a replayed transaction_id again.
"""
import base64
import json
import signal
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec


def load_keys(path):
    with open(path) as handle:
        document = json.load(handle)
    return {int(entry["keyId"]): serialization.load_der_public_key(base64.b64decode(entry["base64"]))
            for entry in document["keys"]}


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check(keys, url, raw=False, anywhere=False):
    """None when the URL verifies, else why not."""
    query = urllib.parse.urlsplit(url).query
    text = query if raw else urllib.parse.unquote(query)
    if anywhere:
        params = urllib.parse.parse_qsl(query, keep_blank_values=True)
        values = dict(params)
        if "signature" not in values or "key_id" not in values:
            return "no signature or key_id"
        content = "&".join(f"{k}={urllib.parse.quote(v, safe='-._~')}" for k, v in params if k not in ("signature", "key_id"))
        signature, key_id = values["signature"], values["key_id"]
    else:
        at = text.find("&signature=")
        if at < 0:
            return "no &signature="
        content, tail = text[:at], text[at + 1:]
        parts = tail.split("&")
        if len(parts) != 2 or not parts[0].startswith("signature=") or not parts[1].startswith("key_id="):
            return "signature and key_id are not the last two parameters"
        signature, key_id = parts[0][len("signature="):], parts[1][len("key_id="):]
    try:
        key = keys[int(key_id)]
    except (KeyError, ValueError):
        return f"unknown key_id {key_id}"
    try:
        key.verify(b64url(signature), content.encode("utf-8"), ec.ECDSA(hashes.SHA256()))
    except (InvalidSignature, ValueError) as error:
        return f"bad signature ({type(error).__name__})"
    return None


def serve(keys_path, naive):
    # A parent that ignores SIGTERM (a test runner) passes that on: stop on it anyway.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    seen = set()

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            keys = load_keys(keys_path)
            url = "http://verifier" + self.path
            why = check(keys, url, raw=naive, anywhere=naive)
            transaction = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query)).get("transaction_id")
            if why is None and not naive:
                if transaction in seen:
                    why = "replayed transaction_id"
                else:
                    seen.add(transaction)
            self.send_response(200 if why is None else 403)
            body = (why or "ok").encode()
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


def main(argv):
    if len(argv) >= 3 and argv[0] == "verify":
        why = check(load_keys(argv[1]), argv[2], raw="--raw" in argv[3:])
        if why:
            print(why, file=sys.stderr)
            return 1
        return 0
    if len(argv) >= 2 and argv[0] == "serve":
        serve(argv[1], naive="--naive" in argv[2:])
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
