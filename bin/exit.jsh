/exit
