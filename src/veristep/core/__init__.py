"""Foundation shared by every part: tiers, typed errors, settings, killable CAS workers."""
