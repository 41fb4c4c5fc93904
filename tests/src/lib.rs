//! Shared support for the end-to-end tests lives here as it grows (fake agent CLIs, fixtures).
