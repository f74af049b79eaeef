import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

// Public Sans, bundled with the app (nothing is fetched from a font service at run time).
import './fonts.css';
import './index.css';

import App from './App';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>
);
