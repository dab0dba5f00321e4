# syntax=docker/dockerfile:1
# memdoctor: the Slack bot (`memdoctor serve`). Without Slack credentials the container stops with a
# message naming them (exit 2) instead of starting anything else.
# Two stages: the first installs everything and builds dist/ (npm ci runs `prepare`), then drops the
# dev dependencies; the runtime image gets only the built JavaScript and what it reads at run time.
# Node 22 is the supported LTS line (Node 20 left support in April 2026).
# The base is a build argument: the real node image by default; elsewhere a local stand-in
# (`--build-arg BASE=localhost/...`, see docs/deploy.md) where no registry is reachable. It must have
# node, npm and a `node` user.
ARG BASE=node:22.21.1-bookworm-slim

FROM ${BASE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY src ./src
COPY playbooks ./playbooks
# npm ci runs `prepare` (scripts/build.mjs): bundles src/ into dist/ and validates the playbooks into
# dist/playbooks.json. The cache mount keeps rebuilds fast. A registry that needs configuration (a
# mirror, a token) gets it as a build secret, which stays out of every layer:
# `--secret id=npmrc,src=$HOME/.npmrc`; without it npm uses its defaults.
RUN --mount=type=cache,target=/root/.npm \
    --mount=type=secret,id=npmrc,target=/root/.npmrc \
    npm ci --no-audit --no-fund \
 && npm prune --omit=dev --no-audit --no-fund \
 && find node_modules/googleapis/build/src/apis -mindepth 1 -maxdepth 1 ! -name dataflow -exec rm -rf {} +
# googleapis ships all of Google's 335 APIs (209 MB); memdoctor loads only dataflow/v1b3 by its path
# (src/connectors/dataflow-call.ts), so the rest is dropped above.

FROM ${BASE} AS runtime
ENV NODE_ENV=production \
    PORT=3000
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node package.json manifest.yaml ./
COPY --chown=node:node bin ./bin
COPY --chown=node:node playbooks ./playbooks
# Read at run time from the package root: the Lua scripts (Redis) and the model prompts.
COPY --chown=node:node src/redis/lua ./src/redis/lua
COPY --chown=node:node src/llm/prompts ./src/llm/prompts
# The image's own unprivileged user; nothing in /app is writable by it except what it owns.
USER node
EXPOSE 3000
# Readiness includes Redis when REDIS_URL is set (GET /healthz answers 503 when it is down).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# node directly (not npm) so SIGTERM reaches memdoctor, which drains and stops within its deadline.
CMD ["node", "bin/memdoctor.mjs", "serve"]
