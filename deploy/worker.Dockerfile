# One image for every worker type; the compose service picks the entrypoint (start:mail, start:ledes, …).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY apps ./apps
COPY packages ./packages
COPY workers ./workers
COPY e2e/package.json ./e2e/package.json
COPY bench/package.json ./bench/package.json
RUN npm ci --no-audit --no-fund --include=dev && npm cache clean --force
USER node
CMD ["npm", "run", "start:mail", "-w", "@portal/workers"]
