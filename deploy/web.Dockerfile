# Builds the web app and serves it with nginx, which also proxies /api and the /realtime WebSocket.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps ./apps
COPY packages ./packages
COPY workers ./workers
COPY e2e/package.json ./e2e/package.json
COPY bench/package.json ./bench/package.json
RUN npm ci --no-audit --no-fund --include=dev
ARG VITE_API_KEY
RUN VITE_API_KEY=$VITE_API_KEY npm run build -w @portal/web

FROM nginx:1.27-alpine
COPY deploy/nginx.conf /etc/nginx/conf.d/default.conf
COPY --from=build /app/apps/web/dist /usr/share/nginx/html
