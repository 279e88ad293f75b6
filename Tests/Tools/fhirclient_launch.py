"""Drives the emulator's SMART server with fhirclient, the SMART on FHIR Python client, which nobody here wrote.

Usage: fhirclient_launch.py <emulator base URL>

fhirclient discovers the endpoints through the CapabilityStatement, sends PKCE S256, checks `state`, redeems the code,
reads the patient, and refreshes. The script plays the browser by following the authorization server's redirect
without a user, and checks what a SMART server must do around fhirclient's steps:
1. a standalone launch as the public client (launch/patient), a Patient read, a refresh with rotation, after which
   the replaced refresh token is refused;
2. an EHR launch from a launch id the emulator minted, with its patient and encounter in the token response;
3. a standalone launch as the confidential client, which fhirclient authenticates with HTTP Basic.
It prints one line per launch and exits with 1 on the first failure.
"""
import json
import sys
import urllib.request

import requests
from fhirclient import client as smart_client

REDIRECT = "http://127.0.0.1/smart/callback"
SCOPE = "openid fhirUser offline_access patient/*.rs"


def post_json(url, body):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def launch(settings):
    """Runs fhirclient from the authorization URL to the token response; returns the ready client."""
    client = smart_client.FHIRClient(settings=settings)
    expect(client.prepare() is False, "fhirclient should need authorization first")
    url = client.authorize_url
    expect("code_challenge_method=S256" in url, f"no PKCE S256 in {url}")
    browser = requests.get(url, allow_redirects=False, timeout=10)
    expect(browser.status_code == 302, f"authorize answered {browser.status_code}: {browser.text}")
    redirect = browser.headers["Location"]
    expect(redirect.startswith(REDIRECT + "?code="), f"authorize redirected to {redirect}")
    client.handle_callback(redirect)
    expect(client.ready, "fhirclient has no access token after the callback")
    return client


def family_name(client):
    patient = client.patient
    expect(patient is not None, f"fhirclient could not read Patient/{client.patient_id}")
    return patient.name[0].family


def standalone_public(base, fhir):
    client = launch({"app_id": "smart-public", "api_base": fhir, "redirect_uri": REDIRECT, "scope": SCOPE})
    expect(client.patient_id == "smart-patient-1", f"patient {client.patient_id}")
    expect(family_name(client) == "Emulator", "unexpected Patient resource")
    first_refresh = client.server.auth.refresh_token
    expect(first_refresh, "no refresh token for offline_access")
    expect(client.reauthorize(), "fhirclient could not refresh")
    rotated = client.server.auth.refresh_token
    expect(rotated and rotated != first_refresh, "the refresh token was not rotated")
    client.reset_patient()
    client.patient_id = "smart-patient-1"
    expect(family_name(client) == "Emulator", "the refreshed access token does not read the patient")
    replay = requests.post(base + "/smart/auth/token", timeout=10, data={
        "grant_type": "refresh_token", "refresh_token": first_refresh, "client_id": "smart-public"})
    expect(replay.status_code == 400 and replay.json().get("error") == "invalid_grant",
           f"the replaced refresh token was answered {replay.status_code} {replay.text}")
    return "standalone launch: patient smart-patient-1 read, refresh token rotated, the old one refused"


def ehr_launch(base, fhir):
    minted = post_json(base + "/_control/smart/launch",
                       {"client_id": "smart-public", "patient": "smart-patient-2", "encounter": "smart-encounter-1"})
    expect(minted["iss"] == fhir, f"the launch names iss {minted['iss']}")
    client = launch({"app_id": "smart-public", "api_base": minted["iss"], "redirect_uri": REDIRECT,
                     "scope": SCOPE, "launch_token": minted["launch"]})
    expect(client.patient_id == "smart-patient-2", f"patient {client.patient_id}")
    expect(client.launch_context.get("encounter") == "smart-encounter-1", f"context {client.launch_context}")
    expect(family_name(client) == "Emulator", "unexpected Patient resource")
    return "EHR launch: patient smart-patient-2 and encounter smart-encounter-1 from the launch id"


def standalone_confidential(base, fhir):
    client = launch({"app_id": "smart-confidential", "app_secret": "smart-secret 1+x", "api_base": fhir,
                     "redirect_uri": REDIRECT, "scope": SCOPE})
    expect(family_name(client) == "Emulator", "unexpected Patient resource")
    return "confidential client: authenticated with HTTP Basic"


def main():
    base = sys.argv[1].rstrip("/")
    fhir = base + "/smart/fhir"
    for step in (standalone_public, ehr_launch, standalone_confidential):
        try:
            print(f"fhirclient {step.__name__}: {step(base, fhir)}", flush=True)
        except Exception as error:  # every failure, fhirclient's own included, ends the run with its message
            print(f"fhirclient {step.__name__} failed: {type(error).__name__}: {error}", flush=True)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
