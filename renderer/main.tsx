import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectVigil } from './api/vigil-client';
import { App } from './app/app';
import { reportUnhandledErrors } from './app/report-unhandled';
import { createAppStore } from './stores/app-store';
import { StoreProvider } from './stores/store-context';
import './styles/app.css';
import './styles/controls.css';
import './styles/components.css';
import './styles/screens.css';
import './styles/restore.css';

const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');
const store = createAppStore(connectVigil());
reportUnhandledErrors(store);
createRoot(container).render(
  <StrictMode>
    <StoreProvider store={store}>
      <App />
    </StoreProvider>
  </StrictMode>,
);
