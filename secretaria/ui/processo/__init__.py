"""The case screens: autos, representações, the case timeline, one dialog per act, the sanction panel."""
