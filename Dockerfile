# Lensdesk staff tool. Build: docker build -t lensdesk .
# glibc base on purpose: @node-rs/argon2 loads its linux-x64-gnu prebuilt.
ARG DENO_VERSION=2.9.6

# --- build: production dependencies, browser bundle and module cache.
FROM denoland/deno:debian-${DENO_VERSION} AS build
WORKDIR /app
# deno.json imports what the tests use too (browser driver, mail and OIDC
# servers, expect, type packages). They are dropped here, before the install,
# so they never reach the image; tests/unit/deploy_test.ts checks this list
# against what main.ts and the cli/ commands really import.
ARG TEST_ONLY_IMPORTS="expect playwright-core @axe-core/playwright oauth2-mock-server smtp-server yaml @types/smtp-server @types/nodemailer @types/react @types/react-dom @types/pg"
COPY deno.json deno.lock ./
COPY src/assets/prune_imports.ts /tmp/prune_imports.ts
# Only removals: the check after the install fails the build if the pruned
# lock gained or changed any entry, so every package is still the locked one
# with the locked integrity (src/assets/prune_imports.ts).
RUN cp deno.lock /tmp/deno.lock.full \
 && deno run --no-config --allow-read --allow-write --allow-env /tmp/prune_imports.ts \
      prune deno.json \
 && deno install \
 && deno run --no-config --allow-read /tmp/prune_imports.ts check /tmp/deno.lock.full deno.lock \
 && mkdir -p /tmp/prod && cp deno.json deno.lock /tmp/prod/

COPY . .
# The full deno.json/deno.lock just came back with the sources: keep the pruned ones.
RUN cp /tmp/prod/deno.json /tmp/prod/deno.lock ./
# build.ts fetches esbuild into DENO_DIR/dl for `deno bundle`; the runtime does not need it.
# The PDF renderer is a process of its own (src/pdf/renderer_process.ts), not an
# import: cache its graph too.
# image_prune.ts then drops what nothing loads at run time from node_modules
# (source maps, types, docs, browser builds, unused fonts...; see the file).
RUN deno task build \
 && deno cache --frozen main.ts src/pdf/pdf_renderer.ts db/migrations/*.ts cli/migrate.ts \
      cli/seed.ts cli/backup.ts cli/restore.ts \
 && deno run --cached-only --allow-read=/app --allow-write=/app/node_modules --allow-env \
      src/assets/image_prune.ts \
 && rm -rf /deno-dir/dl

# --- runtime
FROM denoland/deno:debian-${DENO_VERSION} AS runtime
ENV HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/app/data \
    BACKUP_DIR=/backups \
    DENO_NO_UPDATE_CHECK=1
WORKDIR /app
# The app runs from node_modules (nodeModulesDir "auto"); DENO_DIR/npm holds a
# second copy of every package (~130 MB) that only an install needs, so only
# the transpiled-module caches come along. DENO_DIR stays writable by the app
# user (Deno caches there); the app code stays root-owned, so the process
# cannot rewrite it.
COPY --from=build --chown=deno:deno /deno-dir/gen /deno-dir/gen
COPY --from=build /app /app
# Created before VOLUME so a fresh named volume inherits the ownership (a bind
# mount keeps the host directory's: give it to uid 1993, see docs/operations.md, "Bind mounts instead of volumes").
RUN mkdir -p /app/data /backups && chown deno:deno /app/data /backups
VOLUME /app/data
USER deno
EXPOSE 8000
# main.ts closes the server and the database on SIGTERM; tini (the image's PID 1) forwards it.
STOPSIGNAL SIGTERM
# Follows PORT (exec form cannot expand variables; the probe reads it itself).
# --no-config: the probe needs neither deno.json nor node_modules.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["deno", "eval", "--no-config", "const r = await fetch(`http://127.0.0.1:${Deno.env.get('PORT') || 8000}/healthz`); Deno.exit(r.ok ? 0 : 1)"]
# Same V8 flags and permissions as `deno task start` (tests/unit/deploy_test.ts
# holds them equal), without its rebuild; --cached-only: no network at boot.
# The flags keep the heap near what is live (docs/performance.md).
CMD ["deno", "run", "--cached-only", "--v8-flags=--heap-growing-percent=40,--max-semi-space-size=8", "--allow-net", "--allow-read", "--allow-write", "--allow-env", "--allow-run", "--allow-sys", "--allow-ffi", "main.ts"]
