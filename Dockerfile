# syntax=docker/dockerfile:1
# memdoctor: the Slack bot (or, without Slack credentials, the console).
# Two stages: dependencies are installed in the first, the runtime image gets only what runs.
# memdoctor runs TypeScript directly with tsx (no build step), so the image holds the sources.

FROM node:20-alpine AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only (tsx is one: it runs the sources). The cache mount keeps rebuilds fast.
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund

FROM node:20-alpine AS runtime
ENV NODE_ENV=production \
    PORT=3000
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node package.json tsconfig.json manifest.yaml ./
COPY --chown=node:node src ./src
COPY --chown=node:node playbooks ./playbooks
# The image's own unprivileged user; nothing in /app is writable by it except what it owns.
USER node
EXPOSE 3000
# Readiness includes Redis when REDIS_URL is set (GET /healthz answers 503 when it is down).
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# node directly (not npm start) so SIGTERM reaches memdoctor and it shuts down cleanly.
CMD ["node", "--import", "tsx", "src/main.ts"]
