"""The hall: presence, the match queue, challenges, hall chat and how broadcasts are paced."""
