# syntax=docker/dockerfile:1
# Credence API image: multi-stage (install and type-check, then a runtime with production dependencies only),
# running as the unprivileged `node` user, with a HEALTHCHECK on /health. Data (embedded database, generated
# secrets) lives in the /var/lib/credence volume; with DATABASE_URL set it holds only generated secrets.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# scripts off: `prepare` compiles src/, which is not copied yet
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY . .
# the image is only built from sources that type-check (tsconfig.build.json: src without its tests, which the
# image does not carry); it runs the compiled JavaScript (dist/), never transpiling at start
RUN npx tsc -p tsconfig.build.json && node scripts/build.mjs && npm prune --omit=dev --no-audit --no-fund --ignore-scripts

FROM node:20-bookworm-slim AS runtime
WORKDIR /app
ENV HOST=0.0.0.0 \
    PORT=8080 \
    CREDENCE_DATA_DIR=/var/lib/credence
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/package.json /app/package-lock.json ./
COPY --from=build --chown=root:root /app/bin ./bin
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/migrations ./migrations
COPY --from=build --chown=root:root /app/circuits/build ./circuits/build
COPY --from=build --chown=root:root /app/contracts/artifacts ./contracts/artifacts
COPY --from=build --chown=root:root /app/data/sanctions ./data/sanctions
COPY --from=build --chown=root:root /app/data/registry ./data/registry
COPY --from=build --chown=root:root /app/data/debt-claims ./data/debt-claims
COPY --from=build --chown=root:root /app/data/scoring ./data/scoring
# the web console's built files (committed build output; served at / and /console)
COPY --from=build --chown=root:root /app/console/dist ./console/dist
# The code is read-only to the service user; only the data dir is writable.
RUN mkdir -p /var/lib/credence && chown node:node /var/lib/credence && chmod 700 /var/lib/credence
USER node
VOLUME ["/var/lib/credence"]
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
# V8's background threads sized to the machine's cores (node's default is 4 whatever the machine: on 2 cores they
# contend with the main thread, ~17% more CPU and a slower start); the same flag as `npm start`
CMD ["node", "--v8-pool-size=0", "bin/credence.mjs", "serve"]
