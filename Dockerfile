# array-chatops: the Slack bot for FlashBlade arrays.
#
#   docker build -t array-chatops .
#   docker run -e SLACK_BOT_TOKEN -e SLACK_APP_TOKEN -e ARRAY_CHATOPS_CONFIG=/config/bot.yml \
#     -v /etc/array-chatops:/config:ro -v array-chatops-data:/app/data -p 3000:3000 array-chatops
#
# Configuration and secrets are mounted (volume) or passed (environment) at run time, never baked in.
# test/container/start-command.test.ts runs the install and start commands below outside Docker.

# Node 24 LTS, the major package.json pins (the `node` package and `engines`). Nothing is compiled at install: the
# SQLite store is Node's built-in node:sqlite, so no stage needs a compiler toolchain.
ARG NODE_IMAGE=node:24-slim

# Build: all dependencies, then TypeScript → dist/.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY commands ./commands
COPY bench ./bench
RUN npm run build

# Production dependencies only.
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# Runtime: slim image, no compilers, no dev dependencies, not root.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
ENV PORT=3000
# The store lives on the data volume, never beside the configuration (mounted read-only at /config).
ENV ARRAY_CHATOPS_DATA_DIR=/app/data
# V8's heap held near what is live (src/ops/heap-options.ts says why; the load test runs the bot with the same).
ENV NODE_OPTIONS="--max-semi-space-size=8 --max-old-space-size=384"
# glibc gives blocks of 64 KiB and more back to the system when freed, rather than keeping them in its arenas
# (src/ops/heap-options.ts, MALLOC_ENV, says why; the load test runs the bot with the same).
ENV MALLOC_MMAP_THRESHOLD_=65536
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json ./
COPY --from=build /app/dist ./dist
RUN mkdir -p /app/data /config && chown node:node /app/data
USER node
EXPOSE 3000
VOLUME ["/app/data"]
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.METRICS_PORT||process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/src/main.js"]
