import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { followTheme } from './features/settings/theme';
import './app/styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
// Before the first render, so a dark system never sees a light frame.
followTheme();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
