#!/usr/bin/env python3
"""Signs in to a `rewind serve` in team mode as a browser does, for scripts,
benchmarks and tests, and prints the session cookie's value and the CSRF
token that state-changing requests of that session carry.

    printf '%s\\n' "$PASSWORD" | scripts/rewind_session.py http://127.0.0.1:8090 admin
    # → <rewind_session cookie> <X-Rewind-CSRF token>

Send them as `Cookie: rewind_session=<cookie>` and `X-Rewind-CSRF: <token>`.
The password is read from the first line of standard input, never from the
command line. Exits with status 1 and one line on standard error when the
sign-in is refused.
"""

import json
import re
import sys
import urllib.error
import urllib.parse
import urllib.request


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


def sign_in(url, name, password, timeout=30):
    """Signs `name` in at `url`; returns (cookie, token).

    Raises RuntimeError saying why when the server refuses."""
    page = urllib.request.urlopen(url + "/signin", timeout=timeout).read().decode()
    form_token = re.search(r'name="csrf" value="([^"]+)"', page)
    if not form_token:
        raise RuntimeError(f"{url}/signin has no sign-in form: is the server in team mode?")
    form = urllib.parse.urlencode(
        {"csrf": form_token.group(1), "name": name, "password": password, "next": "/"}
    ).encode()
    request = urllib.request.Request(
        url + "/signin", data=form, headers={"Origin": url, "Content-Type": "application/x-www-form-urlencoded"}
    )
    try:
        urllib.request.build_opener(_NoRedirect).open(request, timeout=timeout)
        raise RuntimeError(f"{url}/signin answered without sending to the next page")
    except urllib.error.HTTPError as answer:
        cookie = re.search(r"rewind_session=([^;]+)", answer.headers.get("Set-Cookie") or "")
        if answer.code != 303 or not cookie:
            detail = answer.read().decode(errors="replace")
            message = re.search(r'role="alert"[^>]*>([^<]+)<', detail)
            raise RuntimeError(
                f"the sign-in of {name} was refused ({answer.code}): "
                + (message.group(1) if message else detail[:200])
            ) from None
    session = cookie.group(1)
    csrf = urllib.request.Request(url + "/api/csrf", headers={"Cookie": "rewind_session=" + session})
    token = json.load(urllib.request.urlopen(csrf, timeout=timeout))["token"]
    return session, token


def main(arguments):
    if len(arguments) != 2:
        print("usage: rewind_session.py URL ACCOUNT < password", file=sys.stderr)
        return 64
    password = sys.stdin.readline().rstrip("\n")
    try:
        cookie, token = sign_in(arguments[0].rstrip("/"), arguments[1], password)
    except (RuntimeError, OSError) as error:
        print(f"rewind_session.py: {error}", file=sys.stderr)
        return 1
    print(cookie, token)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
