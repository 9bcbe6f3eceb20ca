#!/bin/sh
# The official image's entry point, in effect: an option or a deno subcommand
# as the first argument runs deno with the arguments; anything else runs as is.
set -e
case "$1" in
  -*) exec deno "$@" ;;
  add | bench | bundle | cache | check | compile | completions | coverage | doc | eval | fmt | help | \
    init | info | install | jupyter | lint | lsp | publish | remove | repl | run | serve | task | \
    test | types | uninstall | upgrade | vendor) exec deno "$@" ;;
esac
exec "$@"
