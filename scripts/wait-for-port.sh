# Sourced by scripts/test.sh and scripts/mcp-conformance.sh.
# wait_for_port FILE [SECONDS]: prints the port of the first
# `http://127.0.0.1:PORT` a server wrote to FILE (its stdout), waiting up to
# SECONDS (default 10) for it to appear; returns 1 if it never does. The
# servers print that line once they accept connections.
wait_for_port() {
  local file="$1" tenths=$(( ${2:-10} * 10 )) port=""
  for _ in $(seq "$tenths"); do
    port="$(sed -n 's|.*http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$file" 2>/dev/null | head -n 1)"
    if [ -n "$port" ]; then
      echo "$port"
      return 0
    fi
    sleep 0.1
  done
  return 1
}
