# Multi-stage image of the gateway: build with dev dependencies, run with production ones only.
# scripts/check-prod.ts runs these same steps as plain commands in a clean copy (CI step "prod").

FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build

FROM node:24-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
USER node
EXPOSE 4000
# The server drains on SIGTERM (SHUTDOWN_DRAIN_MS, default 25 s): give it more than that, e.g.
# `docker stop -t 30` / compose stop_grace_period / Kubernetes terminationGracePeriodSeconds.
STOPSIGNAL SIGTERM
# The slim image has no curl: node asks /health itself.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||4000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--enable-source-maps", "dist/server.js"]
