# The wrk script of an add: POST /api/todos as the page's own script sends
# it from the same origin (JSON, the X-Rewind-CSRF token read from
# GET /api/csrf, Origin and Sec-Fetch-Site; in team mode the session's
# cookie, see scripts/rewind_session.py). Sourced by server.sh,
# postgres-adds.sh and postgres/lib.sh.
add_lua() { # TOKEN ORIGIN [SESSION]
    cat <<LUA
wrk.method = "POST"
wrk.body = '{"title": "Benchmark: buy oat milk"}'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Rewind-CSRF"] = "$1"
wrk.headers["Origin"] = "$2"
wrk.headers["Sec-Fetch-Site"] = "same-origin"
LUA
    # Team mode: the signed-in session's cookie (its token is the session's).
    if [ -n "${3:-}" ]; then echo "wrk.headers[\"Cookie\"] = \"rewind_session=$3\""; fi
}
