"""Registration for a competition: its settings, the links e-mailed to registrants, the waiting
list, self check-in and their e-mails. Built on ``tournaments`` (a registration becomes an
entry); ``tournaments`` never imports it (docs/architecture.md)."""
