"""Our own date and number formats where Django's differ from what our clubs read (see
``FORMAT_MODULE_PATH`` in settings): French and Italian use Django's (day/month/year)."""
