// The texts of the original portal's screens (users, contact, LEDES, annuity files) in one language: one chunk,
// loaded by lib/i18n.ts (loadAppTexts) with the first screen past the landing ones.
import users from '@portal/i18n/locales/fr/users.json';
import contact from '@portal/i18n/locales/fr/contact.json';
import ledes from '@portal/i18n/locales/fr/ledes.json';
import annuities from '@portal/i18n/locales/fr/annuities.json';

export default { users, contact, ledes, annuities };
