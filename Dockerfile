# One image for the API, the worker and the ASP simulator; docker-compose.yml picks the command:
#   node --import tsx src/server.ts | src/worker.ts | deploy/asp-simulator.ts
# The service runs its TypeScript through tsx (a runtime dependency), as `npm run api` does: no build step.
# Node 24, the current LTS; the same version scripts/infra/node-runtime.cjs pins for machines with an older Node
# (test/deploy/compose.test.ts holds the two together).
FROM node:24.21.0-bookworm-slim

ENV NODE_ENV=production
WORKDIR /app

# Dependencies first (cached while package-lock.json is unchanged). --ignore-scripts: the only install scripts in
# the tree are esbuild's and @swc/core's binary checks (their native binaries come as platform packages),
# protobufjs's version notice and @scarf/scarf's telemetry; @temporalio/core-bridge ships prebuilt binaries for
# linux x64 and arm64 (glibc, hence Debian slim rather than Alpine). npm 11 would skip them anyway.
# The workspace's own package.json too (packages/pint-ae, @einvoice/pint-ae): npm ci links it into node_modules.
# The service imports it from source, as everywhere (tsconfig.json "paths", which tsx follows): no build step.
COPY package.json package-lock.json ./
COPY packages/pint-ae/package.json packages/pint-ae/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# The application, owned by root and read-only to the user that runs it.
COPY . .

# The image's own unprivileged user (uid 1000); tsx keeps its cache in /tmp.
USER node

ENV PORT=3000
EXPOSE 3000
# For the API (the default command); docker-compose.yml gives the worker and the simulator their own checks.
HEALTHCHECK --interval=15s --timeout=10s --start-period=60s --retries=3 \
  CMD ["node", "--import", "tsx", "deploy/healthcheck.ts", "http", "http://127.0.0.1:3000/healthz"]
CMD ["node", "--import", "tsx", "src/server.ts"]
