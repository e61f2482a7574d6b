// The web's texts in one language, one chunk: loaded by lib/i18n.ts when the language is first used.
// Server-only namespaces (errors, emails, api) stay out of the web bundle; the lazy ones (LAZY_NAMESPACES)
// have chunks of their own.
import common from '@portal/i18n/locales/en/common.json';
import auth from '@portal/i18n/locales/en/auth.json';
import users from '@portal/i18n/locales/en/users.json';
import contact from '@portal/i18n/locales/en/contact.json';
import ledes from '@portal/i18n/locales/en/ledes.json';
import annuities from '@portal/i18n/locales/en/annuities.json';

export default { common, auth, users, contact, ledes, annuities };
