from launcher.run import main

main()
