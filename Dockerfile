# Olympus as a container image (README, "Running in containers"; decision 0270).
#
#   docker build -t olympus .          podman build --format docker -t olympus .
#
# Settings come only from the environment (the README's configuration table); ticket attachments live
# on the volume at /data/attachments. The base is the official Node.js 20 image; NODE_IMAGE exists only
# so that a machine without a registry can build from a local copy tagged with the same name.
ARG NODE_IMAGE=node:20-bookworm-slim

# 1. Build: every dependency (TypeScript, Vite), then the server and the web app, then drop dev dependencies.
FROM ${NODE_IMAGE} AS build
# The embedded database (PGlite, about 21 MB) is left out: an image is run against PostgreSQL, as compose
# does. EMBEDDED_DATABASE=1 keeps it, for one container with its data on a volume at /data.
ARG EMBEDDED_DATABASE=0
# argon2 compiles its native addon at install (its prebuilt binaries do not match); the slim image has no compiler.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Then leave out of the run stage what Node never loads at run time: type declarations, source maps,
# TypeScript sources, package docs and tests, and OpenTelemetry's ES builds for bundlers (Node loads
# its CommonJS build); licences stay. Decision 0270 has the sizes.
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/.cache \
 && find node_modules -type f \( -name '*.d.ts' -o -name '*.d.cts' -o -name '*.d.mts' -o -name '*.map' \
      -o -name '*.ts' -o -name '*.tsx' -o -iname 'README*' -o -iname 'CHANGELOG*' -o -iname 'HISTORY*' -o -name '*.markdown' \) -delete \
 && find node_modules -type d \( -name test -o -name tests -o -name __tests__ -o -name benchmark -o -name benchmarks \) -path 'node_modules/*/*' -prune -exec rm -rf {} + \
 && find node_modules/@opentelemetry -type d \( -path '*/build/esm' -o -path '*/build/esnext' \) -prune -exec rm -rf {} + \
 && find dist -type f -name '*.map' -delete \
 && if [ "$EMBEDDED_DATABASE" != 1 ]; then rm -rf node_modules/@electric-sql; fi

# 2. Run: production dependencies, the build and the migrations, as the unprivileged `node` user.
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    ATTACHMENTS_DIR=/data/attachments
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/src/server/db/migrations ./src/server/db/migrations
COPY --from=build /app/src/server/locales ./src/server/locales
# The web's catalogues: the server writes each page's title in the visitor's language from them (decision 0331).
COPY --from=build /app/src/web/locales ./src/web/locales
RUN mkdir -p /data/attachments && chown -R node:node /data
USER node
VOLUME ["/data/attachments"]
EXPOSE 3000
# SIGTERM: stop accepting, finish in-flight requests and running jobs, close the pool (decision 0213);
# the server gives up after 15 s, so allow the container at least 20 s (compose: stop_grace_period).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=5s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "dist/server/server.js"]
