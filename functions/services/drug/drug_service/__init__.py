"""The drug service: RxNav, openFDA and DailyMed through the shared backend client."""
