// First: configures zod before any lazily loaded chunk builds a schema.
import './lib/zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { checkSession } from './features/auth';
import { activateLocale, followAccountLocale, initialLocale } from './features/language';
// The base, then the shared UI kit, then the app shell (docs/decisions/0325-scoped-css.md).
import './styles.css';
import './components/ui/ui.css';
import './app/layout/layout.css';

// The session is checked once when the app starts (docs/product.md#states), here rather than from an
// effect, so no component fetches on mount (docs/decisions/0093, 0245).
followAccountLocale();
void checkSession();

// The first render waits for the visitor's language (decision 0326): English is bundled and ready at
// once; another language's catalogue is one small request, made in parallel with the session check.
void activateLocale(initialLocale())
  .catch((err: unknown) => console.error('The language could not be loaded', err))
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App />
      </StrictMode>,
    ),
  );
