"""Services: the server's logic, free of Socket.IO and of HTTP."""
