"""Writes Tests/Fixtures/JOSE/refusals.json: id tokens a verifier must accept or refuse, with the keys to check them.

Each case names what the verifier must do with it: "accepted", "invalidKey" (the key itself is unusable), or the
reason the token is refused. RSA is computed here by hand (seeded prime search, PKCS#1 v1.5 encoding), so weak keys
the usual libraries refuse to make can be made; ES256 uses `cryptography`. Run from the repository root:

    python3 Tests/Tools/jose_vectors.py
"""

import base64
import hashlib
import json
import random
import sys
from pathlib import Path

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "Tests" / "Fixtures" / "JOSE"

NOW = 1_800_000_000
ISSUER = "https://ehr.example.com"
CLIENT_ID = "my-app"
MAXIMUM_AGE = 600
LEEWAY = 120
SHA256_DIGEST_INFO = bytes.fromhex("3031300d060960864801650304020105000420")


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def integer(text: str) -> int:
    return int.from_bytes(unb64(text), "big")


def octets(value: int, length: int) -> bytes:
    return value.to_bytes(length, "big")


def is_probable_prime(n: int, rng: random.Random) -> bool:
    if n < 4:
        return n in (2, 3)
    if n % 2 == 0:
        return False
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for _ in range(40):
        x = pow(rng.randrange(2, n - 1), d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = pow(x, 2, n)
            if x == n - 1:
                break
        else:
            return False
    return True


def prime(bits: int, rng: random.Random) -> int:
    while True:
        candidate = rng.getrandbits(bits) | (1 << (bits - 1)) | (1 << (bits - 2)) | 1
        if is_probable_prime(candidate, rng) and (candidate - 1) % 65537 != 0:
            return candidate


def pkcs1_encoded(message: bytes, length: int) -> int:
    """EMSA-PKCS1-v1_5 for SHA-256 (RFC 8017 §9.2), as an integer."""
    t = SHA256_DIGEST_INFO + hashlib.sha256(message).digest()
    return int.from_bytes(b"\x00\x01" + b"\xff" * (length - len(t) - 3) + b"\x00" + t, "big")


def rs256(header: dict, claims: dict, n: int, d: int, length: int) -> str:
    signing_input = b64(json.dumps(header).encode()) + "." + b64(json.dumps(claims).encode())
    signature = pow(pkcs1_encoded(signing_input.encode(), length), d, n)
    return signing_input + "." + b64(octets(signature, length))


def es256(header: dict, claims: dict, key: dict) -> str:
    private = ec.derive_private_key(integer(key["d"]), ec.SECP256R1())
    signing_input = b64(json.dumps(header).encode()) + "." + b64(json.dumps(claims).encode())
    r, s = decode_dss_signature(private.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
    return signing_input + "." + b64(octets(r, 32) + octets(s, 32))


def unsigned(header: dict, claims: dict, signature: bytes = b"") -> str:
    return b64(json.dumps(header).encode()) + "." + b64(json.dumps(claims).encode()) + "." + b64(signature)


def main() -> None:
    keys = {key["kid"]: key for key in json.loads((FIXTURES / "test-keys.json").read_text())["keys"]}
    rsa, p256 = keys["test-rsa"], keys["test-p256"]
    n, d = integer(rsa["n"]), integer(rsa["d"])
    rsa_public = {"kty": "RSA", "kid": "test-rsa", "n": rsa["n"], "e": rsa["e"]}
    p256_public = {name: p256[name] for name in ("kty", "kid", "crv", "x", "y")}

    def claims(**changes):
        base = {"iss": ISSUER, "sub": "user-1", "aud": CLIENT_ID, "exp": NOW + 300, "iat": NOW - 5}
        base.update(changes)
        return {key: value for key, value in base.items() if value is not None}

    def header(**changes):
        return {"alg": "RS256", "kid": "test-rsa", "typ": "JWT", **changes}

    def good(head=None, body=None):
        return rs256(head or header(), body or claims(), n, d, 256)

    # A 512-bit modulus written out in 256 octets: 2048 bits by its length, 512 by its value.
    rng = random.Random("jose-vectors")
    p, q = prime(256, rng), prime(256, rng)
    small_n, small_d = p * q, pow(65537, -1, (p - 1) * (q - 1))
    small_key = {"kty": "RSA", "kid": "test-rsa", "n": b64(octets(small_n, 256)), "e": "AQAB"}
    small_token = rs256(header(), claims(), small_n, small_d, 64)

    # With e = 1 the "signature" is the encoded message itself: anyone can make it.
    e1_key = dict(rsa_public, e="AQ")
    e1_input = b64(json.dumps(header()).encode()) + "." + b64(json.dumps(claims()).encode())
    e1_token = e1_input + "." + b64(octets(pkcs1_encoded(e1_input.encode(), 256), 256))

    other_rng = random.Random("jose-vectors-other")
    op, oq = prime(1024, other_rng), prime(1024, other_rng)
    other_d = pow(65537, -1, (op - 1) * (oq - 1))

    cases = [
        ("rs256 accepted", good(), rsa_public, ["RS256"], "accepted"),
        ("rs256 without typ accepted", good(head={"alg": "RS256", "kid": "test-rsa"}), rsa_public, ["RS256"],
         "accepted"),
        ("typ application/jwt accepted", good(head=header(typ="application/JWT")), rsa_public, ["RS256"], "accepted"),
        ("es256 accepted when configured", es256({"alg": "ES256", "kid": "test-p256"}, claims(), p256), p256_public,
         ["RS256", "ES256"], "accepted"),
        ("rsa modulus of 512 bits padded to 256 octets", small_token, small_key, ["RS256"], "invalidKey"),
        ("rsa public exponent 1", e1_token, e1_key, ["RS256"], "invalidKey"),
        ("rsa public exponent even", good(), dict(rsa_public, e=b64(octets(65538, 3))), ["RS256"], "invalidKey"),
        ("crit naming an unknown extension", good(head=header(crit=["urn:example:unknown"],
                                                              **{"urn:example:unknown": True})),
         rsa_public, ["RS256"], "unsupportedCriticalHeader"),
        ("crit that is not an array", good(head=header(crit="exp")), rsa_public, ["RS256"],
         "unsupportedCriticalHeader"),
        ("crit naming a registered header", good(head=header(crit=["alg"])), rsa_public, ["RS256"],
         "unsupportedCriticalHeader"),
        ("typ of an access token", good(head=header(typ="at+jwt")), rsa_public, ["RS256"], "unexpectedTokenType"),
        ("typ of a logout token", good(head=header(typ="logout+jwt")), rsa_public, ["RS256"], "unexpectedTokenType"),
        ("nbf in the future", good(body=claims(nbf=NOW + LEEWAY + 60)), rsa_public, ["RS256"], "notYetValid"),
        ("nbf that is not a number", good(body=claims(nbf="soon")), rsa_public, ["RS256"], "invalidClaim"),
        ("issued longer ago than the maximum age",
         good(body=claims(iat=NOW - MAXIMUM_AGE - LEEWAY - 60, exp=NOW + 3600)), rsa_public, ["RS256"], "tooOld"),
        ("es256 when only rs256 is accepted", es256({"alg": "ES256", "kid": "test-p256"}, claims(), p256),
         p256_public, ["RS256"], "algorithmNotAccepted"),
        ("alg none", unsigned({"alg": "none"}, claims()), rsa_public, ["RS256"], "algorithmNotAccepted"),
        ("hs256 keyed with the public modulus", unsigned({"alg": "HS256", "kid": "test-rsa"}, claims(),
                                                         hashlib.sha256(unb64(rsa["n"])).digest()),
         rsa_public, ["RS256", "ES256", "RS384", "ES384"], "algorithmNotAccepted"),
        ("rs256 signed by another key", rs256(header(), claims(), op * oq, other_d, 256), rsa_public, ["RS256"],
         "invalidSignature"),
    ]
    document = {
        "now": NOW, "issuer": ISSUER, "clientID": CLIENT_ID, "maximumAge": MAXIMUM_AGE, "leeway": LEEWAY,
        "cases": [
            {"name": name, "token": token, "key": key, "algorithms": algorithms, "expect": expect}
            for name, token, key, algorithms, expect in cases
        ],
    }
    (FIXTURES / "refusals.json").write_text(json.dumps(document, indent=1) + "\n")
    sys.stdout.write(f"wrote {len(cases)} cases\n")


if __name__ == "__main__":
    main()
