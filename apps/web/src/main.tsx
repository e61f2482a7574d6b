import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { App } from './app/App.tsx';
import { i18nReady } from './lib/i18n.ts';

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');
// The router starts loading the route's chunk as soon as it is created (App's import), in parallel
// with the language chunk; the first render waits for the texts so no key ever shows.
const mount = root;
function render(): void {
  createRoot(mount).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
// A failed language load still renders (English keys at worst) rather than a blank page.
i18nReady.then(render, render);
