// Vite's own module kinds (`?worker&url`: a worker script's URL, bundled by Vite).
/// <reference types="vite/client" />
