// The frame's and the login's texts in one language, the chunk of every cold visit: loaded by lib/i18n.ts when
// the language is first used. The original portal's screens have theirs in fr-app.ts; later features in chunks
// of their own (LAZY_NAMESPACES); server-only namespaces (errors, emails, api) never reach the browser.
import common from '@portal/i18n/locales/fr/common.json';
import auth from '@portal/i18n/locales/fr/auth.json';

export default { common, auth };
