# syntax=docker/dockerfile:1
# Multi-stage build on Node 22 LTS (slim). The app also runs on Node 20.

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

FROM deps AS build
COPY . .
# The server (build/index.js, public/build) and the operator's commands (build/cli.js).
RUN npm run build

FROM node:22-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
# The build tools are dependencies, so that `npm start` builds a fresh clone
# from a production install (`npm ci --omit=dev`); the image serves the
# finished build without them. The versions are the lockfile's (the deps stage
# has checked it against package.json with `npm ci`).
RUN npm pkg delete dependencies.@remix-run/dev dependencies.esbuild dependencies.tsx \
 && npm install --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
# Fewer malloc arenas keep memory flat while sharp processes photos.
ENV NODE_ENV=production PORT=3000 DATA_DIR=/app/data MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=prod-deps --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/build ./build
COPY --from=build --chown=node:node /app/public ./public
COPY --chown=node:node package.json ./
COPY --chown=node:node drizzle ./drizzle
# The demo content's photos, encoded beforehand (npm run demo:photos).
COPY --chown=node:node demo ./demo
COPY --chown=node:node server ./server
# `zbor pastor|backup|restore|import:firebase|seed …` (build/cli.js needs
# node_modules, drizzle/ and package.json's "type": "module").
RUN mkdir -p /app/data && chown node:node /app/data && ln -s /app/build/cli.js /usr/local/bin/zbor
USER node
EXPOSE 3000
# /readyz answers 200 while the instance can serve (database up, or pages in its cache).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# server/index.mjs boots the app (migrations, accounts) and then serves it
# with remix-serve; see the comment at its top.
CMD ["node", "server/index.mjs"]
