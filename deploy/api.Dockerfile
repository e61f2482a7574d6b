# The API process (HTTP + socket.io). Migrations and the base seed run at start.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# glibc's malloc arenas: 2 instead of 8 per core (decision 230: -47 MB at the embedded peak, -21 MB in the annuities worker).
ENV MALLOC_ARENA_MAX=2
COPY package.json package-lock.json ./
COPY apps ./apps
COPY packages ./packages
COPY workers ./workers
COPY e2e/package.json ./e2e/package.json
COPY bench/package.json ./bench/package.json
COPY scripts/build-server.mjs ./scripts/build-server.mjs
RUN npm ci --no-audit --no-fund --include=dev && npm cache clean --force
# The server's JavaScript, built once here: the processes run it without a TypeScript loader (decision 231).
RUN npm run build:server
USER node
EXPOSE 3000
CMD ["npm", "run", "start", "-w", "@portal/api"]
