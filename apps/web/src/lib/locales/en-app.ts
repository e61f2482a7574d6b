// The texts of the original portal's screens (users, contact, LEDES, annuity files) in one language: one chunk,
// loaded by lib/i18n.ts (loadAppTexts) with the first screen past the landing ones.
import users from '@portal/i18n/locales/en/users.json';
import contact from '@portal/i18n/locales/en/contact.json';
import ledes from '@portal/i18n/locales/en/ledes.json';
import annuities from '@portal/i18n/locales/en/annuities.json';

export default { users, contact, ledes, annuities };
