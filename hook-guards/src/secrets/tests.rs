//! Unit tests of the secrets guard.
