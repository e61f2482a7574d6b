// The patent-portfolio module's public entry: its routes and access policy (nothing else is used outside the module).
export { patentPortfolioPolicy } from './policy.ts';
export { patentPortfolioRoutes } from './router.ts';
