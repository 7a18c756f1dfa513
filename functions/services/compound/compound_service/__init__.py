"""The compound service: PubChem PUG-REST and PUG-View through the shared backend client."""
