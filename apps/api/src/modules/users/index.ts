// The users module's public entry: its routes and access policy, and the user as the API shows it.
export { usersPolicy } from './policy.ts';
export { loadPublicUser, loadPublicUsers } from './presenter.ts';
export { usersRoutes } from './router.ts';
